# sb_slurm_traits.m4 - what the configured Slurm tree has, one test per
# API trait the plugins depend on.
#
# Copyright (C) 2026 The slurm-buckets authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The plugins never test a Slurm version. configure asks the tree (found
# by SB_SLURM) what it has: a header, a field, a macro, a function's
# arguments, the symbols its select and priority frameworks look up.
# Each trait becomes one macro, 0 or 1, in the generated header
# sb_slurm_traits.h (included by plugins/compat/sb_slurm.h), and one
# automake conditional of the same name, which chooses the files named
# after the trait. A new Slurm series is then a new answer to the same
# questions, or a new question (HACKING.md, "Adding a Slurm series").
#
# The two framework tables are read from the tree's own source (the
# syms[] array of src/interfaces/select.c and priority.c, or of
# src/common/ for the older layout): every entry becomes
# SB_SELECT_OP_<field> or SB_PRIORITY_OP_<name>, and a table holding an
# entry plugins/compat/select_ops.def does not know, or in another order,
# stops configure: the base's table is a struct laid out field by field.

# _SB_TRAIT_COMPILES(INCLUDES, BODY): does a translation unit with
# Slurm's config.h, slurm.h, INCLUDES and BODY compile against the tree?
# (Not AC_COMPILE_IFELSE: confdefs.h would redefine Slurm's PACKAGE_*.)
AC_DEFUN([_SB_TRAIT_COMPILES], [
  cat >conftest_sb.c <<_SB_EOF
#include "config.h"
#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
$sb_trait_defs
$1
int sb_conftest(void);
int sb_conftest(void)
{
	$2;
	return 0;
}
_SB_EOF
  AS_IF([$CC $CFLAGS -Werror=implicit-function-declaration \
	-Werror=incompatible-pointer-types -Werror=int-conversion \
	-I"$sb_slurm_src" -I"$sb_slurm_src/src/common" -c conftest_sb.c \
	-o conftest_sb.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
	[sb_trait_ok=yes], [sb_trait_ok=no
	 echo "failed program was:" >&AS_MESSAGE_LOG_FD
	 sed 's/^/| /' conftest_sb.c >&AS_MESSAGE_LOG_FD])
  rm -f conftest_sb.c conftest_sb.$OBJEXT
  test "x$sb_trait_ok" = xyes
])

# _SB_TRAIT_HAS_FILE(PATH): does the tree have PATH?
AC_DEFUN([_SB_TRAIT_HAS_FILE], [test -f "$sb_slurm_src/$1"])

# SB_SLURM_TRAIT(NAME, WHAT, SHELL-TEST): define NAME 0 or 1, with WHAT
# as its comment in sb_slurm_traits.h, and the conditional NAME.
AC_DEFUN([SB_SLURM_TRAIT], [
  AC_MSG_CHECKING([Slurm trait $1])
  AS_IF([$3], [sb_t=1], [sb_t=0])
  AS_IF([test $sb_t = 1], [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no])])
  sb_traits_h="$sb_traits_h
/* $2 */
#define $1 $sb_t"
  sb_trait_defs="$sb_trait_defs
#define $1 $sb_t"
  AM_CONDITIONAL([$1], [test $sb_t = 1])
])

# _SB_FRAMEWORK_SYMS(TYPE): the symbols of the tree's TYPE framework
# (select, priority) in its syms[] order.
AC_DEFUN([_SB_FRAMEWORK_SYMS], [`
  for f in "$sb_slurm_src/src/interfaces/$1.c" \
	   "$sb_slurm_src/src/common/$1.c" \
	   "$sb_slurm_src/src/common/slurm_$1.c"; do
    test -f "$f" || continue
    sed -n '/syms\@<:@\@:>@ = {/,/};/p' "$f" | grep -o '"@<:@a-z_@:>@*"' | tr -d '"'
    break
  done | tr '\n' ' '`])

AC_DEFUN([SB_SLURM_TRAITS], [
  sb_traits_h=
  sb_trait_defs=

  dnl ---- where the internal headers are ----------------------------------
  SB_SLURM_TRAIT([SB_HAVE_SRC_INTERFACES],
    [plugin interfaces in src/interfaces/ (else src/common/)],
    [_SB_TRAIT_HAS_FILE([src/interfaces/select.h])])
  SB_SLURM_TRAIT([SB_HAVE_JOB_RECORD_H],
    [job_record_t in src/common/job_record.h (else slurmctld.h)],
    [_SB_TRAIT_HAS_FILE([src/common/job_record.h])])
  SB_SLURM_TRAIT([SB_HAVE_COMMON_STATE_SAVE_H],
    [src/common/state_save.h],
    [_SB_TRAIT_HAS_FILE([src/common/state_save.h])])
  SB_SLURM_TRAIT([SB_HAVE_JOB_FEATURES_H],
    [src/common/job_features.h],
    [_SB_TRAIT_HAS_FILE([src/common/job_features.h])])
  SB_SLURM_TRAIT([SB_HAVE_THREADPOOL_H],
    [src/common/threadpool.h],
    [_SB_TRAIT_HAS_FILE([src/common/threadpool.h])])

  dnl ---- names ------------------------------------------------------------
  SB_SLURM_TRAIT([SB_HAVE_LIST_T],
    [list_t and list_itr_t (else List and ListIterator only)],
    [_SB_TRAIT_COMPILES([#include "src/common/list.h"],
      [list_t *l = NULL; list_itr_t *i = NULL; (void) l; (void) i])])
  SB_SLURM_TRAIT([SB_HAVE_JOB_DETAILS_T],
    [job_details_t (else struct job_details)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [job_details_t *d = NULL; (void) d])])
  SB_SLURM_TRAIT([SB_HAVE_POWER_DOWN_NODE_BITMAP],
    [powered-down nodes in power_down_node_bitmap (else power_node_bitmap)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [(void) power_down_node_bitmap])])
  SB_SLURM_TRAIT([SB_HAVE_PUBLIC_BITSTR_OVERHEAD],
    [BITSTR_OVERHEAD public in bitstring.h (else private to bitstring.c)],
    [_SB_TRAIT_COMPILES([#include "src/common/bitstring.h"],
      [int x = BITSTR_OVERHEAD; (void) x])])
  SB_SLURM_TRAIT([SB_HAVE_GRES_JOB_TEST_CORE_BITMAP],
    [gres_job_test() takes a core bitmap and disable_binding (9 arguments)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/gres.h"
#else
#include "src/common/gres.h"
#endif],
      [(void) gres_job_test(NULL, NULL, true, NULL, 0, 0, 0, NULL, false)])])
  SB_SLURM_TRAIT([SB_HAVE_DELTA_TIMER],
    [DELTA_TIMER in timers.h (else TIMER_DURATION_USEC())],
    [_SB_TRAIT_COMPILES([#include "src/common/timers.h"
#ifndef DELTA_TIMER
#error no DELTA_TIMER
#endif], [])])
  SB_SLURM_TRAIT([SB_HAVE_NAMED_THREADS],
    [slurm_thread_create() takes a thread name first],
    [_SB_TRAIT_COMPILES([#include <pthread.h>
#include "src/common/macros.h"
#include "src/common/log.h"
#include "src/common/xassert.h"
static void *sb_fn(void *arg) { return arg; }
#if SB_HAVE_THREADPOOL_H
#include "src/common/threadpool.h"
#endif], [pthread_t t; slurm_thread_create("sb", &t, sb_fn, NULL)])])
  SB_SLURM_TRAIT([SB_HAVE_CR_CPU],
    [SelectTypeParameters bits named CR_* (else only SELECT_*)],
    [_SB_TRAIT_COMPILES([], [int x = CR_CPU | CR_CORE | CR_SOCKET | CR_MEMORY; (void) x])])
  SB_SLURM_TRAIT([SB_HAVE_CR_OTHER_CONS_RES],
    [SelectTypeParameters=OTHER_CONS_RES and OTHER_CONS_TRES name a base],
    [_SB_TRAIT_COMPILES([], [int x = CR_OTHER_CONS_RES | CR_OTHER_CONS_TRES; (void) x])])

  dnl ---- select framework -------------------------------------------------
  SB_SLURM_TRAIT([SB_HAVE_SELECT_SINGLE_JOB_TEST],
    [a select plugin may ask for one job_test() call with every node (SELECT_SINGLE_JOB_TEST)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/select.h"
#else
#include "src/common/select.h"
#endif], [int x = SELECT_SINGLE_JOB_TEST; (void) x])])
  SB_SLURM_TRAIT([SB_HAVE_WILL_RUN_DATA],
    [job_test() ends with backfill's will_run_data_t window],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/select.h"
#else
#include "src/common/select.h"
#endif],
      [will_run_data_t w = { 0 }; (void) w])])
  SB_SLURM_TRAIT([SB_HAVE_RESV_EXC],
    [job_test() gets a reservation's exclusions as resv_exc_t (else a core bitmap)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [resv_exc_t r = { 0 }; (void) r])])

  sb_select_syms=_SB_FRAMEWORK_SYMS([select])
  sb_known=`sed -n 's/^SB_SELECT_OP(\(@<:@a-z_@:>@*\), *\(@<:@a-z_@:>@*\),.*/\1:\2/p' "$srcdir/plugins/compat/select_ops.def"`
  AC_MSG_CHECKING([the select framework's table])
  AS_IF([test "x$sb_select_syms" = x],
    [AC_MSG_RESULT([not found])
     AC_MSG_ERROR([cannot read the select framework's symbols (syms@<:@@:>@ of src/interfaces/select.c or src/common/select.c) in $sb_slurm_src])])
  sb_want=
  sb_ops_h=
  for sb_k in $sb_known; do
    sb_field=${sb_k%%:*}
    sb_sym=${sb_k#*:}
    case " $sb_select_syms " in
    *" $sb_sym "*) sb_want="$sb_want $sb_sym"; sb_v=1 ;;
    *) sb_v=0 ;;
    esac
    sb_ops_h="$sb_ops_h
#define SB_SELECT_OP_$sb_field $sb_v"
  done
  for sb_s in $sb_select_syms; do
    case " plugin_id $sb_want " in
    *" $sb_s "*) ;;
    *) AC_MSG_RESULT([unknown entry])
       AC_MSG_ERROR([Slurm's select framework looks up $sb_s, which plugins/compat/select_ops.def does not know: this Slurm's select API is new to slurm-buckets])
    esac
  done
  AS_IF([test "x`echo plugin_id $sb_want`" != "x`echo $sb_select_syms`"],
    [AC_MSG_RESULT([another order])
     AC_MSG_ERROR([Slurm's select framework has its entries in another order than plugins/compat/select_ops.def: Slurm: $sb_select_syms; ours: plugin_id $sb_want])])
  sb_n=`echo $sb_select_syms | wc -w`
  AC_MSG_RESULT([$sb_n entries, all known])
  sb_traits_h="$sb_traits_h

/* The select framework's entries (SB_SELECT_OP_<field>, select_ops.def). */$sb_ops_h"
  SB_SLURM_TRAIT([SB_HAVE_SELECT_DATA],
    [the select framework has node and job data, select state and steps],
    [test $(echo "$sb_ops_h" | grep -c 'SB_SELECT_OP_jobinfo_pack 1') = 1])

  dnl ---- priority framework -----------------------------------------------
  sb_prio_syms=_SB_FRAMEWORK_SYMS([priority])
  AS_IF([test "x$sb_prio_syms" = x],
    [AC_MSG_ERROR([cannot read the priority framework's symbols (syms@<:@@:>@ of src/interfaces/priority.c or src/common/slurm_priority.c) in $sb_slurm_src])])
  for sb_s in $sb_prio_syms; do
    case $sb_s in
    priority_p_set|priority_p_reconfig|priority_p_set_assoc_usage|\
    priority_p_calc_fs_factor|priority_p_get_priority_factors_list|\
    priority_p_job_end|priority_p_recover|priority_p_thread_start) ;;
    *) AC_MSG_ERROR([Slurm's priority framework looks up $sb_s, which priority/bucket does not have: this Slurm's priority API is new to slurm-buckets])
    esac
  done
  SB_SLURM_TRAIT([SB_HAVE_PRIORITY_CALC_FS_FACTOR],
    [the priority framework looks up priority_p_calc_fs_factor()],
    [case " $sb_prio_syms " in *" priority_p_calc_fs_factor "*) true ;; *) false ;; esac])
  SB_SLURM_TRAIT([SB_HAVE_PRIORITY_THREAD_START],
    [slurmctld starts the plugin's thread (priority_p_thread_start(), priority_p_recover())],
    [case " $sb_prio_syms " in *" priority_p_thread_start "*) true ;; *) false ;; esac])
  SB_SLURM_TRAIT([SB_HAVE_PRIORITY_FACTORS_REQUEST],
    [sprio's list is asked for with the request (filtered by the plugin, no lock held)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/priority.h"
#else
#include "src/common/slurm_priority.h"
#endif], [(void) priority_g_get_priority_factors_list(NULL, 0)])])
  SB_SLURM_TRAIT([SB_HAVE_PRIORITY_FACTORS_T],
    [job_ptr->prio_factors is a priority_factors_t (else sprio's object)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [priority_factors_t f = { 0 }; (void) f])])
  SB_SLURM_TRAIT([SB_HAVE_PRIORITY_MULT_T],
    [per-partition and QOS priorities in a priority_mult_t (else job_ptr->priority_array)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [priority_mult_t m = { 0 }; (void) m])])
  SB_SLURM_TRAIT([SB_HAVE_JOB_PRIO_MULT],
    [that priority_mult_t is job_ptr->prio_mult (else job_ptr->part_prio)],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"],
      [job_record_t *j = NULL; (void) j->prio_mult])])
  SB_SLURM_TRAIT([SB_HAVE_PRIO_OBJ_STEP_ID],
    [sprio's object names its job by step_id (else job_id)],
    [_SB_TRAIT_COMPILES([],
      [priority_factors_object_t o; (void) o.step_id])])
  SB_SLURM_TRAIT([SB_HAVE_USED_LIMITS_RUN_SECS],
    [a QOS counts TRES run time per account and user (slurmdb_used_limits_t.tres_run_secs)],
    [_SB_TRAIT_COMPILES([#include "slurm/slurmdb.h"],
      [slurmdb_used_limits_t u; (void) u.tres_run_secs])])
  SB_SLURM_TRAIT([SB_HAVE_ACTIVE_NODE_RECORD_COUNT],
    [active_node_record_count (multifactor's job size counts existing nodes)],
    [_SB_TRAIT_COMPILES([#include "src/common/node_conf.h"],
      [(void) active_node_record_count])])
  SB_SLURM_TRAIT([SB_HAVE_SITE_FACTOR_G_INIT],
    [site_factor_g_init() (else site_factor_plugin_init())],
    [_SB_TRAIT_COMPILES([#include "src/slurmctld/slurmctld.h"
#if SB_HAVE_SRC_INTERFACES
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#endif], [(void) site_factor_g_init()])])
  SB_SLURM_TRAIT([SB_HAVE_COORD_LOCKED_ARG],
    [assoc_mgr_is_user_acct_coord() takes whether the caller holds the user lock],
    [_SB_TRAIT_COMPILES([#include "src/common/assoc_mgr.h"],
      [(void) assoc_mgr_is_user_acct_coord(NULL, 0, NULL, false)])])
  SB_SLURM_TRAIT([SB_HAVE_SUBMIT_RESPONSE_STEP_ID],
    [a submission's response names its job by step_id (else job_id): for clients of the public API],
    [_SB_TRAIT_COMPILES([],
      [submit_response_msg_t r; (void) r.step_id.job_id])])
  SB_SLURM_TRAIT([SB_HAVE_NODE_INFO_ALLOC_CPUS],
    [a node_info_t says its allocated CPUs itself (else slurm_get_select_nodeinfo() asks the select plugin): for clients of the public API],
    [_SB_TRAIT_COMPILES([],
      [node_info_t n; (void) n.alloc_cpus])])
  SB_SLURM_TRAIT([SB_HAVE_GET_JOB_STEPS_STEP_ID],
    [slurm_get_job_steps() takes a slurm_step_id_t * (NULL: every step), not an update time, job id and step id: for clients of the public API],
    [_SB_TRAIT_COMPILES([],
      [job_step_info_response_msg_t *r; (void) slurm_get_job_steps((slurm_step_id_t *) 0, &r, 0)])])

  dnl the header the compat layer includes (rewritten only when it changes)
  sb_traits_new="/*
 * sb_slurm_traits.h - what the Slurm tree $sb_slurm_src
 * (Slurm $sb_hdr_str) has, as configure found it (m4/sb_slurm_traits.m4).
 * Generated: do not edit. Included by plugins/compat/ only (sb_slurm.h,
 * sb_slurm_api.h).
 */
#ifndef SB_SLURM_TRAITS_H
#define SB_SLURM_TRAITS_H
$sb_traits_h

#endif /* SB_SLURM_TRAITS_H */"
  AS_IF([test "x`cat sb_slurm_traits.h 2>/dev/null`" != "x$sb_traits_new"],
    [printf '%s\n' "$sb_traits_new" >sb_slurm_traits.h])
])
