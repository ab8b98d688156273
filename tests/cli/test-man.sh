#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# karmactl's man page (docs/karmactl.1): it renders without a warning
# (mandoc -Tlint when installed, groff -ww), and documents every command
# that `karmactl --help` lists and every option each command's --help shows.
# Speaks TAP.
#   bash tests/cli/test-man.sh PATH/TO/karmactl PATH/TO/karmactl.1
set -u

MAN=$(realpath "${2:?usage: test-man.sh KARMACTL MANPAGE}")
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh" "$1"
export LC_ALL=C.UTF-8

if command -v mandoc >/dev/null; then
	mandoc -Tlint -Wwarning "$MAN" >lint.out 2>&1
	report "mandoc -Tlint finds nothing" $(( $? != 0 || $(wc -c <lint.out) != 0 ))
	sed 's/^/#   /' lint.out
else
	echo "# mandoc is not installed: lint skipped"
fi
groff -man -Tutf8 -ww -z "$MAN" 2>groff.err
report "groff -man -ww renders it without a warning" $(( $? != 0 || $(wc -c <groff.err) != 0 ))
sed 's/^/#   /' groff.err

# The page as text, wide enough that no entry wraps; the entries' tags start
# at column 8, the options of a command further in.
groff -man -Tascii -P-c -P-b -P-u -rLL=250n "$MAN" 2>/dev/null >page.txt
commands=$(k --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
check "karmactl --help lists commands" test -n "$commands"
for c in $commands; do
	check "the man page has an entry for '$c'" grep -Eq "^ {7}$c( |\$)" page.txt
	for opt in $(k "$c" --help | grep -o -- ' --[a-z][a-z-]*' | sort -u); do
		[ "$opt" = --help ] && continue
		check "...and documents '$c $opt'" grep -Fq -- "$opt" page.txt
	done
done
# the global options too
for opt in $(k --help | sed -n '/^Application Options:/,/^$/p' | grep -o -- ' --[a-z][a-z-]*'); do
	check "the man page documents the global option '$opt'" grep -Fq -- "$opt" page.txt
done

tap_done
