/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - karma-manager: translations, then the application.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "km-application.h"

int main(int argc, char **argv)
{
	g_autoptr(KmApplication) app = NULL;

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	app = km_application_new();
	return g_application_run(G_APPLICATION(app), argc, argv);
}
