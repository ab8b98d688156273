/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-application.h - Karma Manager's AdwApplication: command-line options
 * (--demo, IMAGE, --version), app-wide actions and their accelerators.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KM_TYPE_APPLICATION (km_application_get_type())
G_DECLARE_FINAL_TYPE(KmApplication, km_application, KM, APPLICATION, AdwApplication)

KmApplication *km_application_new(void);

G_END_DECLS
