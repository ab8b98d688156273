#include "omfs.h"
int omfs_fsck(const struct omfs_blockdev *dev, const struct omfs_fsck_opts *opts, struct omfs_fsck_result *res)
{ (void)dev; (void)opts; if (res) { res->errors = 0; res->fixed = 0; res->leaked_blocks = 0; res->files = 0; res->dirs = 0; } return 0; }
