/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-layout.c - the player view's adaptive layout (libadwaita
 * 1.4): the header bar, transfers and capacity as the bars of an
 * AdwToolbarView, and the playlists and the details as the sidebars of two
 * AdwOverlaySplitViews, which fold over the library when the window is
 * narrower than 600 px (an AdwBreakpoint), so that it is usable at 360 px;
 * then the header keeps only the buttons the menu does not have.
 * The .ui describes the libadwaita 1.2 layout (a GtkPaned, which cannot
 * fold); this moves its widgets, so that one .ui serves both.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"

#if ADW_CHECK_VERSION(1, 4, 0)
/* Below this width the side panes fold (GNOME's HIG: a narrow window). */
#define FOLD_CONDITION "max-width: 600sp"
/* The smallest size of the view: a phone's width (data/meson.build). */
#define MIN_WIDTH 360
#define MIN_HEIGHT 300

static void notify_details_visible(KmPlayerView *self)
{
	g_object_notify(G_OBJECT(self), "details-visible");
}

/* The details beside the library (the revealer's place in the .ui). */
static GtkWidget *details_split_new(KmPlayerView *self)
{
	AdwOverlaySplitView *split = ADW_OVERLAY_SPLIT_VIEW(adw_overlay_split_view_new());
	GtkWidget *details = GTK_WIDGET(self->details_pane);

	g_object_ref(details);
	gtk_box_remove(GTK_BOX(gtk_widget_get_parent(details)), details);
	adw_overlay_split_view_set_sidebar(split, details);
	g_object_unref(details);
	adw_overlay_split_view_set_sidebar_position(split, GTK_PACK_END);
	adw_overlay_split_view_set_max_sidebar_width(split, 360);
	adw_overlay_split_view_set_sidebar_width_fraction(split, 0.3);
	/* shown and hidden by the details action only (and the fold, below) */
	adw_overlay_split_view_set_pin_sidebar(split, TRUE);
	/* the revealer stays, empty and hidden: the details action shows it */
	gtk_widget_set_visible(GTK_WIDGET(self->details_revealer), FALSE);
	g_object_bind_property(self->details_revealer, "reveal-child", split, "show-sidebar",
			       G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
	/* folded, the details close by themselves too (Escape, a click beside) */
	g_signal_connect_object(self->details_revealer, "notify::reveal-child",
				G_CALLBACK(notify_details_visible), self, G_CONNECT_SWAPPED);
	adw_overlay_split_view_set_content(split, self->content_box);
	return GTK_WIDGET(split);
}

/* The playlists beside the rest; a header button shows them when folded. */
static GtkWidget *playlists_split_new(KmPlayerView *self, GtkWidget *content)
{
	AdwOverlaySplitView *split = ADW_OVERLAY_SPLIT_VIEW(adw_overlay_split_view_new());
	GtkWidget *button = gtk_toggle_button_new();

	adw_overlay_split_view_set_sidebar(split, GTK_WIDGET(self->sidebar));
	adw_overlay_split_view_set_content(split, content);
	gtk_button_set_icon_name(GTK_BUTTON(button), "sidebar-show-symbolic");
	gtk_widget_set_tooltip_text(button, _("Show Playlists"));
	gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL,
				       _("Show Playlists"), -1);
	g_object_bind_property(split, "show-sidebar", button, "active",
			       G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
	g_object_bind_property(split, "collapsed", button, "visible", G_BINDING_SYNC_CREATE);
	adw_header_bar_pack_start(self->header_bar, button);
	return GTK_WIDGET(split);
}

void _km_player_view_init_layout(KmPlayerView *self)
{
	GtkWidget *sidebar = g_object_ref(GTK_WIDGET(self->sidebar));
	GtkWidget *content = g_object_ref(self->content_box);
	GtkWidget *details, *playlists, *bin;
	AdwBreakpoint *fold;

	gtk_paned_set_start_child(self->paned, NULL);
	gtk_paned_set_end_child(self->paned, NULL);
	details = details_split_new(self);
	playlists = playlists_split_new(self, details);
	g_object_unref(content);
	g_object_unref(sidebar);
	gtk_box_insert_child_after(self->main_box, playlists, GTK_WIDGET(self->paned));
	gtk_box_remove(self->main_box, GTK_WIDGET(self->paned));
	self->paned = NULL;
	self->playlists_split = playlists;

	fold = adw_breakpoint_new(adw_breakpoint_condition_parse(FOLD_CONDITION));
	adw_breakpoint_add_setters(fold,
				   G_OBJECT(playlists), "collapsed", TRUE,
				   G_OBJECT(playlists), "show-sidebar", FALSE,
				   G_OBJECT(details), "collapsed", TRUE,
				   /*
				    * over the library, the details wait to be asked for;
				    * unfolding shows them again if they were shown
				    */
				   G_OBJECT(self), "details-visible", FALSE,
				   /* in the menu too: room for the window's buttons */
				   G_OBJECT(self->add_button), "visible", FALSE,
				   G_OBJECT(self->export_button), "visible", FALSE,
				   G_OBJECT(self->eject_button), "visible", FALSE,
				   NULL);
	bin = adw_breakpoint_bin_new();
	gtk_widget_set_size_request(bin, MIN_WIDTH, MIN_HEIGHT);
	adw_breakpoint_bin_set_child(ADW_BREAKPOINT_BIN(bin),
				     km_toolbar_view_new_from_box(self->main_box, playlists));
	adw_breakpoint_bin_add_breakpoint(ADW_BREAKPOINT_BIN(bin), fold);
	gtk_widget_set_vexpand(bin, TRUE);
	gtk_box_append(self->main_box, bin);
}

void _km_player_view_playlist_chosen(KmPlayerView *self)
{
	AdwOverlaySplitView *split = ADW_OVERLAY_SPLIT_VIEW(self->playlists_split);

	if (split && adw_overlay_split_view_get_collapsed(split))
		adw_overlay_split_view_set_show_sidebar(split, FALSE);
}
#else
void _km_player_view_init_layout(KmPlayerView *self)
{
	/*
	 * the .ui's layout, the library and details never squeezed below their
	 * size (clipped): the window is as wide as they need (data/meson.build)
	 */
	gtk_paned_set_shrink_end_child(self->paned, FALSE);
}

void _km_player_view_playlist_chosen(KmPlayerView *self)
{
	/* the sidebar never folds */
}
#endif
