/* util/version.h: the version this build reports: git describe when built from git, else the release */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_VERSION_H
#define TURNPOST_UTIL_VERSION_H

/*
 * "0.1.0" from a release tarball; from a git checkout `git describe`
 * ("0.2.0-14-g1a2b3c4", "0.1.0-g1a2b3c4" while there is no tag, "-dirty"
 * with uncommitted changes). Written by tools/version.sh into the build's
 * src/util/version.c whenever it changes.
 */
extern const char version_text[];

#endif
