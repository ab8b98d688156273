/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-image-device.h - an image file or block-device node as an omfs_blockdev. */
#ifndef KM_IMAGE_DEVICE_H
#define KM_IMAGE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The OMFS core's device handle (omfs.h): handed on, so only declared here. */
struct omfs_blockdev;
struct km_image_device;

/*
 * Opens path (a regular file or a block device). The volume is the window
 * [offset, offset + length) of it; length 0 means up to the end.
 * Returns NULL with errno set and a sentence in msg.
 */
struct km_image_device *km_image_device_open(const char *path, bool writable, uint64_t offset,
					     uint64_t length, char *msg, size_t msglen);
/* Creates (or truncates) a regular file of `size` bytes, sparse. */
struct km_image_device *km_image_device_create(const char *path, uint64_t size, char *msg,
					       size_t msglen);
const struct omfs_blockdev *km_image_device_blockdev(struct km_image_device *dev);
int km_image_device_close(struct km_image_device *dev);

#endif
