# sb_slurm.m4 - find Slurm's public headers, a configured Slurm source tree
# and the installed slurmctld, and insist that all three are one version.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Select and priority plugins are loaded only when their plugin_version
# equals the daemon's SLURM_VERSION_NUMBER exactly (src/common/plugin.c),
# and they are compiled against internal headers whose struct layouts
# change between micro versions: a mismatch must stop the build here,
# not surface as a refused plugin or a crash in slurmctld.
#
# Sets and substitutes: SLURM_CPPFLAGS (public headers), SLURM_SRC_CPPFLAGS
# (source tree, for slurmctld plugins), SLURM_LIBS and SLURM_LIBSLURM (the
# public libslurm.so, for the live tests' clients; Automake conditional
# HAVE_LIBSLURM), SLURM_VERSION_STRING,
# SLURM_VERSION_NUMBER, SLURM_PLUGINDIR; defines SB_SLURM_VERSION.

AC_DEFUN([SB_SLURM], [
  AC_ARG_WITH([slurm],
    [AS_HELP_STRING([--with-slurm=PREFIX],
      [prefix of Slurm's public headers (PREFIX/include/slurm) @<:@/usr@:>@])],
    [sb_slurm_prefix=$withval], [sb_slurm_prefix=/usr])
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [configured Slurm source tree (internal headers and config.h);
       build-aux/slurm-source prepares Debian's])],
    [sb_slurm_src=$withval], [sb_slurm_src=])
  AC_ARG_WITH([slurmctld],
    [AS_HELP_STRING([--with-slurmctld=PATH],
      [the slurmctld the plugins will load into @<:@found in PATH or /usr/sbin@:>@])],
    [sb_slurmctld=$withval], [sb_slurmctld=])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR],
      [where to install the plugins @<:@Slurm's own PluginDir@:>@])],
    [sb_plugindir=$withval], [sb_plugindir=])

  dnl 1. Public header.
  SLURM_CPPFLAGS=
  AS_IF([test "x$sb_slurm_prefix" != x/usr],
        [SLURM_CPPFLAGS="-I$sb_slurm_prefix/include"])
  sb_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS $SLURM_CPPFLAGS"
  AC_CHECK_HEADER([slurm/slurm_version.h], [],
    [AC_MSG_ERROR([slurm/slurm_version.h not found under $sb_slurm_prefix/include: install libslurm-dev or use --with-slurm=PREFIX])])
  AC_COMPUTE_INT([sb_hdr_ver], [SLURM_VERSION_NUMBER],
    [#include <slurm/slurm_version.h>],
    [AC_MSG_ERROR([cannot read SLURM_VERSION_NUMBER from slurm/slurm_version.h])])
  CPPFLAGS=$sb_save_CPPFLAGS
  sb_hdr_str=`printf '%d.%02d.%d' $((sb_hdr_ver >> 16)) $(((sb_hdr_ver >> 8) & 255)) $((sb_hdr_ver & 255))`
  AC_MSG_CHECKING([Slurm version of the public header])
  AC_MSG_RESULT([$sb_hdr_str])

  dnl 2. Configured source tree.
  AC_MSG_CHECKING([for a configured Slurm source tree])
  AS_IF([test "x$sb_slurm_src" = x || test "x$sb_slurm_src" = xno],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--with-slurm-source=DIR is required: select and priority plugins need Slurm's internal headers and config.h. Prepare Debian's source of the installed version with: build-aux/slurm-source])])
  sb_slurm_src=`cd "$sb_slurm_src" 2>/dev/null && pwd`
  AS_IF([test ! -f "$sb_slurm_src/src/slurmctld/slurmctld.h" || test ! -f "$sb_slurm_src/src/common/bitstring.h"],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--with-slurm-source: $sb_slurm_src is not a Slurm source tree (no src/slurmctld/slurmctld.h)])])
  AS_IF([test ! -f "$sb_slurm_src/config.h" || test ! -f "$sb_slurm_src/slurm/slurm_version.h"],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--with-slurm-source: $sb_slurm_src has no config.h: it is not configured (build-aux/slurm-source does that)])])
  AC_MSG_RESULT([$sb_slurm_src])
  sb_src_ver=`sed -n 's/^#define SLURM_VERSION_NUMBER *//p' "$sb_slurm_src/config.h"`
  AS_IF([test "x$sb_src_ver" = x],
    [AC_MSG_ERROR([cannot read SLURM_VERSION_NUMBER from $sb_slurm_src/config.h])])
  sb_src_ver=$((sb_src_ver))
  sb_src_str=`printf '%d.%02d.%d' $((sb_src_ver >> 16)) $(((sb_src_ver >> 8) & 255)) $((sb_src_ver & 255))`
  AC_MSG_CHECKING([Slurm version of the source tree])
  AC_MSG_RESULT([$sb_src_str])

  dnl 3. Installed daemon.
  AS_IF([test "x$sb_slurmctld" = x],
    [AC_PATH_PROG([sb_slurmctld], [slurmctld], [], [$sb_slurm_prefix/sbin:$PATH:/usr/sbin:/usr/local/sbin])])
  AS_IF([test "x$sb_slurmctld" = x || test ! -x "$sb_slurmctld"],
    [AC_MSG_ERROR([slurmctld not found: the plugins must match the installed daemon; install slurmctld or use --with-slurmctld=PATH])])
  AC_MSG_CHECKING([Slurm version of $sb_slurmctld])
  dnl "slurm-wlm 22.05.8" or "slurm 22.05.8": the last word.
  sb_ctld_str=`"$sb_slurmctld" -V 2>/dev/null | sed -n '1s/^slurm.* //p'`
  AS_IF([test "x$sb_ctld_str" = x],
    [AC_MSG_RESULT([unknown])
     AC_MSG_ERROR([cannot read a version from '$sb_slurmctld -V'])])
  AC_MSG_RESULT([$sb_ctld_str])

  dnl 4. All three must agree, exactly.
  AS_IF([test "x$sb_hdr_str" != "x$sb_src_str" || test "x$sb_hdr_str" != "x$sb_ctld_str"],
    [AC_MSG_ERROR([Slurm versions disagree: public header $sb_hdr_str, source tree $sb_src_str, $sb_slurmctld $sb_ctld_str. Plugins must be built against exactly the installed version (re-run build-aux/slurm-source after a Slurm upgrade).])])
  AS_IF([! cmp -s "$sb_slurm_src/slurm/slurm_version.h" "$sb_slurm_prefix/include/slurm/slurm_version.h"],
    [AC_MSG_ERROR([$sb_slurm_src/slurm/slurm_version.h differs from $sb_slurm_prefix/include/slurm/slurm_version.h although both say $sb_hdr_str])])
  AS_IF([! grep -q '^#define NDEBUG 1' "$sb_slurm_src/config.h"],
    [AC_MSG_WARN([$sb_slurm_src/config.h lacks NDEBUG: xassert() will be live, unlike Debian's daemons])])

  dnl 5. The series: one the tree tests (build-aux/slurm-series). What
  dnl the plugins need of it is asked trait by trait (sb_slurm_traits.m4).
  sb_series=`printf '%d.%02d' $((sb_hdr_ver >> 16)) $(((sb_hdr_ver >> 8) & 255))`
  AC_MSG_CHECKING([whether slurm-buckets supports Slurm $sb_hdr_str])
  sb_known=`"$srcdir/build-aux/slurm-series" list 2>/dev/null`
  AS_IF([test "x$sb_known" = x],
    [AC_MSG_RESULT([unknown])
     AC_MSG_ERROR([cannot read the supported Slurm series from $srcdir/build-aux/slurm-series])])
  AS_CASE([" $sb_known "],
    [*" $sb_series "*],
    [sb_tested=`"$srcdir/build-aux/slurm-series" version "$sb_series" 2>/dev/null`
     AS_IF([test "x`"$srcdir/build-aux/slurm-series" source "$sb_series" 2>/dev/null`" = xsite],
       [sb_how="tested where a site's tarball is given"],
       [sb_how="tested on every change"])
     AC_MSG_RESULT([yes: the series $sb_series, $sb_how (last on $sb_tested)])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([Slurm $sb_hdr_str is of the series $sb_series, which slurm-buckets does not support (supported: $sb_known)])])

  dnl 6. Plugin directory: Slurm's own, found where its stock plugins live.
  AS_IF([test "x$sb_plugindir" = x], [
    dnl a Slurm of its own prefix (--with-slurm) first: a distribution's
    dnl Slurm may be installed beside it
    sb_multiarch=`$CC -print-multiarch 2>/dev/null`
    for d in "$sb_slurm_prefix/lib/slurm" "$sb_slurm_prefix/lib64/slurm" \
             "/usr/lib/$sb_multiarch/slurm-wlm" /usr/lib64/slurm /usr/lib/slurm; do
      AS_IF([test -f "$d/select_linear.so"], [sb_plugindir=$d; break])
    done])
  AS_IF([test "x$sb_plugindir" = x],
    [AC_MSG_ERROR([cannot find Slurm's PluginDir (no select_linear.so in the usual places): use --with-slurm-plugindir=DIR])])

  dnl 7. Slurm's public client library, libslurm.so, for the live tests'
  dnl own clients of the API (testsuite/live/*.c), linked as a site's
  dnl programs and pyslurm are (Slurm's own commands link libslurmfull):
  dnl such a program loads select/bucket too, and testsuite/build/b05
  dnl checks that it needs nothing libslurm.so lacks (SLURM_LIBSLURM).
  dnl Optional: the live checks that need a client say 'skip' without it.
  SLURM_LIBS=
  SLURM_LIBSLURM=
  sb_multiarch=`$CC -print-multiarch 2>/dev/null`
  for d in "$sb_slurm_prefix/lib/$sb_multiarch" "$sb_slurm_prefix/lib64" \
           "$sb_slurm_prefix/lib"; do
    AS_IF([test -f "$d/libslurm.so"],
      [SLURM_LIBSLURM=$d/libslurm.so; break])
  done
  have_libslurm=no
  AS_IF([test "x$SLURM_LIBSLURM" != x], [
    sb_libdir=`dirname "$SLURM_LIBSLURM"`
    sb_save_LDFLAGS=$LDFLAGS
    LDFLAGS="$LDFLAGS -L$sb_libdir"
    AC_CHECK_LIB([slurm], [slurm_load_jobs],
      [have_libslurm=yes
       SLURM_LIBS="-L$sb_libdir -Wl,-rpath,$sb_libdir -lslurm"])
    LDFLAGS=$sb_save_LDFLAGS])
  AS_IF([test "x$have_libslurm" = xno],
    [AC_MSG_WARN([no libslurm.so under $sb_slurm_prefix (libslurm-dev): the live checks of Slurm's public API will say 'skip', and b05 cannot check what select/bucket needs of it])])
  AC_SUBST([SLURM_LIBS])
  AC_SUBST([SLURM_LIBSLURM])
  AM_CONDITIONAL([HAVE_LIBSLURM], [test "x$have_libslurm" = xyes])

  AC_MSG_NOTICE([building for Slurm $sb_hdr_str: headers of $sb_slurm_src, to load into $sb_slurmctld ($sb_ctld_str), plugins into $sb_plugindir])
  SLURM_SRC_CPPFLAGS="-I$sb_slurm_src -I$sb_slurm_src/src/common"
  SLURM_SERIES=$sb_series
  AC_SUBST([SLURM_SERIES])
  SLURM_VERSION_STRING=$sb_hdr_str
  SLURM_VERSION_NUMBER=`printf '0x%06x' $sb_hdr_ver`
  SLURM_PLUGINDIR=$sb_plugindir
  SLURM_SOURCE_DIR=$sb_slurm_src
  SLURMCTLD=$sb_slurmctld
  SLURM_PREFIX=$sb_slurm_prefix
  AC_SUBST([SLURM_PREFIX])
  AC_SUBST([SLURM_CPPFLAGS])
  AC_SUBST([SLURM_SRC_CPPFLAGS])
  AC_SUBST([SLURM_VERSION_STRING])
  AC_SUBST([SLURM_VERSION_NUMBER])
  AC_SUBST([SLURM_PLUGINDIR])
  AC_SUBST([SLURM_SOURCE_DIR])
  AC_SUBST([SLURMCTLD])
  AC_DEFINE_UNQUOTED([SB_SLURM_VERSION], ["$sb_hdr_str"],
    [Slurm version the plugins are built for])
])
