/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-script.c - the scripted player (usb-script.h): reading the records
 * back as transport answers, and writing them from a recorded conversation.
 */
#include "usb-script.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct usb_script {
	struct km_usb_transport t;
	const uint8_t *data;
	size_t size, pos;
	bool gone;		/* -ENODEV once: the player never comes back */
	uint64_t clock_ms;	/* virtual: sleeps cost nothing */
};

static struct usb_script *script_of(struct km_usb_transport *t)
{
	return (struct usb_script *)t;
}

static const int script_errors[8] = { 0, -EPIPE, -ETIMEDOUT, -ENODEV, -EIO, -EOVERFLOW, 0, 0 };

/* The next byte, or 0 past the end (when the caller has already checked for the end). */
static uint8_t take_byte(struct usb_script *s)
{
	return s->pos < s->size ? s->data[s->pos++] : 0;
}

static size_t take_u16(struct usb_script *s)
{
	size_t lo = take_byte(s);

	return lo | (size_t)take_byte(s) << 8;
}

/* The result byte of the next record, or false when the player is gone. */
static bool take_status(struct usb_script *s, uint8_t *status)
{
	if (s->gone || s->pos >= s->size) {
		s->gone = true;
		return false;
	}
	*status = take_byte(s);
	if (script_errors[*status & USB_SCRIPT_RESULT_MASK] == -ENODEV)
		s->gone = true;
	return true;
}

static int script_bulk_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			   unsigned timeout_ms)
{
	struct usb_script *s = script_of(t);
	uint8_t status;
	int err;

	(void)buf;
	(void)timeout_ms;
	*done = 0;
	if (!take_status(s, &status))
		return -ENODEV;
	err = script_errors[status & USB_SCRIPT_RESULT_MASK];
	if (status & USB_SCRIPT_PARTIAL) {
		size_t n = take_u16(s);

		*done = n < len ? n : len;
	} else if (!err) {
		*done = len;
	}
	return err;
}

static int script_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
			  unsigned timeout_ms)
{
	struct usb_script *s = script_of(t);
	size_t n, avail;
	uint8_t status;

	(void)timeout_ms;
	*done = 0;
	if (!take_status(s, &status))
		return -ENODEV;
	n = take_u16(s);
	if (n > len)
		n = len;
	avail = s->size - s->pos < n ? s->size - s->pos : n;
	memcpy(buf, s->data + s->pos, avail);
	s->pos += avail;
	*done = status & USB_SCRIPT_FILL ? len : n;
	memset((uint8_t *)buf + avail, avail ? ((uint8_t *)buf)[avail - 1] : 0, *done - avail);
	return script_errors[status & USB_SCRIPT_RESULT_MASK];
}

static int script_control(struct km_usb_transport *t)
{
	struct usb_script *s = script_of(t);
	uint8_t status;

	if (!take_status(s, &status))
		return -ENODEV;
	return script_errors[status & USB_SCRIPT_RESULT_MASK];
}

static int script_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	(void)endpoint;
	return script_control(t);
}

static void script_sleep(struct km_usb_transport *t, unsigned ms)
{
	script_of(t)->clock_ms += ms;
}

static void script_close(struct km_usb_transport *t)
{
	free(script_of(t));
}

static const struct km_usb_transport_ops script_ops = {
	.bulk_out = script_bulk_out,
	.bulk_in = script_bulk_in,
	.clear_halt = script_clear_halt,
	.bot_reset = script_control,
	.sleep_ms = script_sleep,
	.close = script_close,
};

struct km_usb_transport *usb_script_transport_new(const uint8_t *data, size_t size)
{
	struct usb_script *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->t.ops = &script_ops;
	s->data = data;
	s->size = size;
	return &s->t;
}

uint8_t usb_script_code(int err)
{
	for (uint8_t code = 0; code <= USB_SCRIPT_EOVERFLOW; code++)
		if (script_errors[code] == err)
			return code;
	return USB_SCRIPT_EIO;
}

static size_t put_u16(uint8_t *buf, size_t n)
{
	buf[0] = (uint8_t)n;
	buf[1] = (uint8_t)(n >> 8);
	return 2;
}

size_t usb_script_record_out(uint8_t *buf, int err, size_t len, size_t done)
{
	buf[0] = usb_script_code(err);
	if (done == (err ? 0 : len))
		return 1;
	if (done > UINT16_MAX)
		return 0;
	buf[0] |= USB_SCRIPT_PARTIAL;
	return 1 + put_u16(buf + 1, done);
}

size_t usb_script_record_in(uint8_t *buf, int err, const uint8_t *data, size_t len,
			    size_t done)
{
	size_t n = done;

	buf[0] = usb_script_code(err);
	if (done == len) {
		/* the run that ends the data is one byte, or none for zeros */
		while (n > 1 && data[n - 1] == data[n - 2])
			n--;
		if (n == 1 && data[0] == 0)
			n = 0;
		buf[0] |= USB_SCRIPT_FILL;
	}
	if (n > UINT16_MAX)
		return 0;	/* the harness's requests stay far below */
	put_u16(buf + 1, n);
	memcpy(buf + 3, data, n);
	return 3 + n;
}

size_t usb_script_record_ctrl(uint8_t *buf, int err)
{
	buf[0] = usb_script_code(err);
	return 1;
}
