#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every manual page has the sections of a manual page and names its command;
# 'help COMMAND' prints the same page; mistakes on the command line exit
# with 2 and say what is wrong.
set -u
lanewise=$1
failures=0
fail() { echo "help check: $*"; failures=$((failures + 1)); }

for command in "" info exec run compile; do
  page=$("$lanewise" $command --help 2>&1)
  status=$?
  [ $status -eq 0 ] || fail "'lanewise $command --help' exited with $status"
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT EXAMPLES "EXIT STATUS"; do
    grep -qx "$section" <<<"$page" || fail "'lanewise $command --help' has no $section section"
  done
  name="lanewise${command:+ $command}"
  grep -q "^    $name - " <<<"$page" || fail "'lanewise $command --help' does not name '$name'"
  # The same page as man(7) source: its title, its sections, and NAME as
  # whatis(1) reads it ("lanewise-run \- ...").
  man=$("$lanewise" help --man $command)
  upper=$(tr a-z A-Z <<<"$command")
  grep -q "^\.TH LANEWISE${command:+-$upper} 1 " <<<"$man" || fail "'help --man $command' has no .TH"
  for section in NAME SYNOPSIS DESCRIPTION "EXIT STATUS"; do
    grep -qx "\.SH $section" <<<"$man" || fail "'help --man $command' has no .SH $section"
  done
  grep -qF "lanewise${command:+\\-$command} \\- " <<<"$man" ||
    fail "'help --man $command' does not name lanewise${command:+-$command} in NAME"
  if [ -n "$command" ]; then
    [ "$("$lanewise" help $command)" = "$page" ] || fail "'lanewise help $command' differs"
    [ "$("$lanewise" $command -h)" = "$page" ] || fail "'lanewise $command -h' differs"
  fi
done
# The run page documents every spec form and run description directive.
run_page=$("$lanewise" run --help)
for word in "buffer:TYPE:COUNT" "fill=V" "range=START" "random=LO,HI" "values=V1" "file=PATH" \
            "local:BYTES" "TYPE:V1,...,Vn" "expect-finding KIND LINE" "build-options OPTIONS"; do
  grep -qF -- "$word" <<<"$run_page" || fail "'lanewise run --help' does not document '$word'"
done

# expect_usage_error EXPECTED-TEXT ARGUMENTS...: exit status 2 and the text on stderr.
expect_usage_error() {
  local expected=$1
  shift
  local errors
  errors=$("$lanewise" "$@" 2>&1 >/dev/null)
  local status=$?
  [ $status -eq 2 ] || fail "'lanewise $*' exited with $status, not 2"
  grep -qF -- "$expected" <<<"$errors" || fail "'lanewise $*' printed '$errors', not '$expected'"
}
expect_usage_error "no command"
expect_usage_error "unknown command 'frobnicate'" frobnicate
expect_usage_error "no manual page for 'frobnicate'" help frobnicate
expect_usage_error "no manual page for 'frobnicate'" help --man frobnicate
expect_usage_error "unknown option '--bogus'" run --bogus
expect_usage_error "option '--kernel' needs a value" run k.cl --kernel
expect_usage_error "option '--deterministic' takes no value" exec --deterministic=1 true
expect_usage_error "unknown check 'bonds'" exec --check=bounds,bonds true
expect_usage_error "no program to run" exec --check
expect_usage_error "--check-exitcode takes a status from 0 to 255, not '256'" exec --check-exitcode=256 true
expect_usage_error "--timeout takes a number of seconds (0 for none), not '-1'" run k.cl --timeout=-1
expect_usage_error "--timeout takes a number of seconds (0 for none), not 'soon'" exec --timeout=soon true
expect_usage_error "unexpected operand 'extra'" info extra
expect_usage_error "no kernel name" run k.cl --global 4
expect_usage_error "global size '0' is not one to three positive whole numbers" run k.cl --global 0
expect_usage_error "--local has 1 dimensions and --global 2" run k.cl --kernel k --global 4,4 --local 2
expect_usage_error "unknown type 'flaot'" run k.cl --arg buffer:flaot:4
expect_usage_error "the count '*' needs values= or file=" run k.cl --arg buffer:int:*
expect_usage_error "range= takes START or START,STEP" run k.cl --arg buffer:int:4:range=1,2,3
expect_usage_error "float4 takes one value or 4, not 3" run k.cl --arg float4:1,2,3
expect_usage_error "'1.5' is not a int value" run k.cl --arg int:1.5
expect_usage_error "values= gives 6 values for 2 int2 (4 values)" run k.cl --kernel k --global 1 --arg buffer:int2:2:values=1,2,3,4,5,6
expect_usage_error "cannot read the kernel file 'missing.cl'" run missing.cl --kernel k --global 1

[ "$("$lanewise" --version)" = "lanewise $("$lanewise" --version | cut -d' ' -f2)" ] ||
  fail "--version does not print 'lanewise VERSION'"

[ $failures -eq 0 ] || exit 1
echo "help check: every manual page and usage error as expected"
