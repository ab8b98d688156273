/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-input.c - a user's keyboard and mouse through XTEST.
 *
 * libXtst is opened at run time: its four calls have not changed since
 * X11R6, and only the runtime library is then needed (no -dev package).
 */
#include "config.h"

#include "km-test-input.h"

#include <dlfcn.h>
#include <X11/XKBlib.h>
#include <gdk/x11/gdkx.h>

#include "km-test-util.h"

typedef struct {
	int (*fake_key)(Display *dpy, unsigned int keycode, Bool is_press, unsigned long delay);
	int (*fake_button)(Display *dpy, unsigned int button, Bool is_press, unsigned long delay);
	int (*fake_motion)(Display *dpy, int screen, int x, int y, unsigned long delay);
} Xtest;

static const Xtest *xtest(void)
{
	static Xtest calls;
	static void *lib;

	if (lib)
		return &calls;
	lib = dlopen("libXtst.so.6", RTLD_NOW);
	if (!lib)
		g_error("the GUI tests need libXtst.so.6 (Debian: libxtst6): %s", dlerror());
	*(void **)&calls.fake_key = dlsym(lib, "XTestFakeKeyEvent");
	*(void **)&calls.fake_button = dlsym(lib, "XTestFakeButtonEvent");
	*(void **)&calls.fake_motion = dlsym(lib, "XTestFakeMotionEvent");
	g_assert_true(calls.fake_key && calls.fake_button && calls.fake_motion);
	return &calls;
}

static Display *xdisplay(GtkWidget *widget)
{
	GdkDisplay *display = gtk_widget_get_display(widget);

	g_assert_true(GDK_IS_X11_DISPLAY(display));
	return gdk_x11_display_get_xdisplay(display);
}

static Window xwindow(GtkWidget *widget)
{
	GtkNative *native = gtk_widget_get_native(widget);

	g_assert_nonnull(native);
	return gdk_x11_surface_get_xid(gtk_native_get_surface(native));
}

static gboolean count_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
	(*(guint *)data)++;
	return G_SOURCE_CONTINUE;
}

void km_test_settle(GtkWindow *window)
{
	guint ticks = 0;
	guint id;

	XSync(xdisplay(GTK_WIDGET(window)), False);
	/* events go out at the start of a frame: two whole frames have seen them */
	id = gtk_widget_add_tick_callback(GTK_WIDGET(window), count_tick, &ticks, NULL);
	/* a window the events closed (a dialog's button) ticks no more */
	km_test_wait_until(ticks >= 3 || !gtk_widget_get_mapped(GTK_WIDGET(window)));
	if (gtk_widget_get_mapped(GTK_WIDGET(window)))
		gtk_widget_remove_tick_callback(GTK_WIDGET(window), id);
	while (g_main_context_iteration(NULL, FALSE))
		;
}

void km_test_focus_window(GtkWindow *window)
{
	Display *dpy = xdisplay(GTK_WIDGET(window));

	km_test_wait_until(gtk_widget_get_mapped(GTK_WIDGET(window)));
	XSetInputFocus(dpy, xwindow(GTK_WIDGET(window)), RevertToParent, CurrentTime);
	XSync(dpy, False);
	km_test_wait_until(gtk_window_is_active(window));
}

static void press(Display *dpy, KeySym keysym, Bool down)
{
	KeyCode code = XKeysymToKeycode(dpy, keysym);

	g_assert_cmpuint(code, !=, 0);
	xtest()->fake_key(dpy, code, down, CurrentTime);
}

void km_test_press_key(GtkWindow *window, guint keyval, GdkModifierType mods)
{
	Display *dpy = xdisplay(GTK_WIDGET(window));
	KeyCode code = XKeysymToKeycode(dpy, keyval);
	static const struct {
		GdkModifierType mask;
		KeySym key;
	} modifiers[] = {
		{ GDK_CONTROL_MASK, XK_Control_L },
		{ GDK_SHIFT_MASK, XK_Shift_L },
		{ GDK_ALT_MASK, XK_Alt_L },
	};

	g_assert_cmpuint(code, !=, 0);
	/* "?" is Shift+/ on the keyboard: the shift the symbol needs is held too */
	if (XkbKeycodeToKeysym(dpy, code, 0, 0) != keyval &&
	    XkbKeycodeToKeysym(dpy, code, 0, 1) == keyval)
		mods |= GDK_SHIFT_MASK;
	km_test_focus_window(window);
	for (guint i = 0; i < G_N_ELEMENTS(modifiers); i++)
		if (mods & modifiers[i].mask)
			press(dpy, modifiers[i].key, True);
	xtest()->fake_key(dpy, code, True, CurrentTime);
	xtest()->fake_key(dpy, code, False, CurrentTime);
	for (guint i = G_N_ELEMENTS(modifiers); i-- > 0;)
		if (mods & modifiers[i].mask)
			press(dpy, modifiers[i].key, False);
	km_test_settle(window);
}

/*
 * Clicks on one spot closer in time than the double-click time make a
 * double-click, even with clicks elsewhere between (a widget counts the
 * presses it sees): a single click waits that long after the last click
 * near that spot, as a hand does.
 */
static void wait_past_double_click(GtkWidget *widget, int x, int y)
{
	static struct {
		gint64 time;
		int x, y;
	} recent[8];
	static guint next;
	int ms = 400, distance = 5;

	g_object_get(gtk_widget_get_settings(widget), "gtk-double-click-time", &ms,
		     "gtk-double-click-distance", &distance, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(recent); i++) {
		gint64 until = recent[i].time + (ms + 100) * (gint64)1000;

		if (!recent[i].time || ABS(x - recent[i].x) > distance ||
		    ABS(y - recent[i].y) > distance)
			continue;
		while (g_get_monotonic_time() < until) {
			g_main_context_iteration(NULL, FALSE);
			g_usleep(1000);
		}
	}
	recent[next].time = g_get_monotonic_time();
	recent[next].x = x;
	recent[next].y = y;
	next = (next + 1) % G_N_ELEMENTS(recent);
}

void km_test_click_at(GtkWidget *widget, double x, double y, guint button, guint n_clicks)
{
	GtkNative *native = gtk_widget_get_native(widget);
	Display *dpy = xdisplay(widget);
	graphene_point_t in = GRAPHENE_POINT_INIT(x, y), out;
	g_autoptr(GtkWindow) window = NULL;
	double dx, dy;
	int root_x, root_y;
	Window child;

	g_assert_nonnull(native);
	g_assert_true(gtk_widget_compute_point(widget, GTK_WIDGET(native), &in, &out));
	/* widget coordinates of the native, then of its surface (past the CSD shadow) */
	gtk_native_get_surface_transform(native, &dx, &dy);
	XTranslateCoordinates(dpy, xwindow(widget), DefaultRootWindow(dpy), (int)(out.x + dx),
			      (int)(out.y + dy), &root_x, &root_y, &child);
	wait_past_double_click(widget, root_x, root_y);
	xtest()->fake_motion(dpy, -1, root_x, root_y, CurrentTime);
	/* kept while the click is taken in: it may close a dialog window */
	window = g_object_ref(GTK_IS_WINDOW(native) ? GTK_WINDOW(native) :
			      GTK_WINDOW(gtk_widget_get_root(widget)));
	for (guint i = 0; i < n_clicks; i++) {
		xtest()->fake_button(dpy, button, True, CurrentTime);
		xtest()->fake_button(dpy, button, False, CurrentTime);
	}
	km_test_settle(window);
}

void km_test_click(GtkWidget *widget, guint button, guint n_clicks)
{
	km_test_wait_until(gtk_widget_get_mapped(widget) &&
			   gtk_widget_get_width(widget) > 0);
	km_test_click_at(widget, gtk_widget_get_width(widget) / 2.0,
			 gtk_widget_get_height(widget) / 2.0, button, n_clicks);
}
