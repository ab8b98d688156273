/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-checker.h - a km_usb_transport that passes every operation on to
 * another one and watches what the host does, whatever the player answers:
 * well-formed RIOP packets and command blocks (tags going up by one, data
 * lengths matching READ/WRITE(10), nothing past the reported capacity, no
 * WRITE(10) outside the sectors the caller is writing, nor other bytes than
 * the caller's), data phases only
 * where a command announced them, no talking to a player that is gone, no
 * waiting that does not talk to the player, one close and nothing after it.
 */
#ifndef USB_CHECKER_H
#define USB_CHECKER_H

#include "usb-exercise.h"

struct usb_checker;

/* Wraps inner; broken promises go to r. NULL when out of memory (inner is then closed). */
struct usb_checker *usb_checker_new(struct km_usb_transport *inner,
				    struct usb_exercise_result *r);
/* The checking transport; its close closes inner but leaves the checker for the verdict. */
struct km_usb_transport *usb_checker_transport(struct usb_checker *c);
/* Capacity in sectors, once known (0: unknown, not checked). */
void usb_checker_set_sectors(struct usb_checker *c, uint64_t sectors);
/*
 * The caller is writing usb_exercise_byte() at bytes [off, off + len): WRITE(10)
 * may touch those sectors only, and must send those bytes there. len 0: no
 * writing at all.
 */
void usb_checker_allow_writes(struct usb_checker *c, uint64_t off, uint64_t len);
/* Transport operations and READ(10) command blocks so far. */
uint64_t usb_checker_ops(const struct usb_checker *c);
uint64_t usb_checker_reads(const struct usb_checker *c);
/* Checks that the transport was closed exactly once (closing it if not), then frees c. */
void usb_checker_free(struct usb_checker *c);

#endif
