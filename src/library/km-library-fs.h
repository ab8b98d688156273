/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-fs.h - the OMFS volume under a library, for karmactl's
 * counters and the tests that look at the disk itself. The app has no use
 * for it (docs/ARCHITECTURE.md, "One library, two faces").
 */
#ifndef KM_LIBRARY_FS_H
#define KM_LIBRARY_FS_H

#include "km-library.h"
#include "omfs.h"

G_BEGIN_DECLS

/* The mounted music partition, for statistics and counters; owned by lib. */
struct omfs_fs *km_library_get_fs(KmLibrary *lib);

G_END_DECLS

#endif
