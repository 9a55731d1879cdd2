#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package: cpack makes lanewise_<version>_amd64.deb from this
# build; its control fields, its files, lintian's verdict (no errors), and
# the installed tree working on its own, unpacked into a throw-away root (the
# library found through the package's ICD entry path under that root, the
# translator beside it, the command beside both).
set -u
config=$1    # the build's CPackConfig.cmake
version=$2   # the project's version
multiarch=$3 # the multiarch tuple, x86_64-linux-gnu
libdir=/usr/lib/$multiarch
failures=0
fail() { echo "package check: $*"; failures=$((failures + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$config" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; echo "package check: cpack failed"; exit 1; }
deb="$work/out/lanewise_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$work/out"; echo "package check: no $deb"; exit 1; }

# Control fields.
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = lanewise ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', not $version"
[ "$(field Architecture)" = amd64 ] || fail "Architecture is '$(field Architecture)'"
depends=$(field Depends)
for dependency in libtbb12 ocl-icd-libopencl1 libllvm14 libclang-cpp14 libllvmspirvlib14 libstdc++6; do
  grep -qw "$dependency" <<<"$depends" || fail "Depends lacks $dependency: $depends"
done
grep -qw clang-14 <<<"$(field Recommends)" || fail "Recommends lacks clang-14"
[ "$(field Provides)" = opencl-icd ] || fail "Provides is '$(field Provides)'"
grep -qE '^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$' <<<"$(field Maintainer)" ||
  fail "Maintainer is '$(field Maintainer)', not a name and an address"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/OpenCL/vendors/lanewise.icd ||
  fail "the ICD entry is not a conffile"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./triggers | grep -qx "activate-noawait ldconfig" ||
  fail "the package does not trigger ldconfig"

# Debian policy, as lintian checks it: any error fails; warnings and
# informational tags are shown.
if command -v lintian >/dev/null; then
  lintian_out=$(lintian --fail-on error --display-info "$deb" 2>&1)
  lintian_status=$?
  echo "lintian --display-info $(basename "$deb"):"
  echo "${lintian_out:-(no tags)}"
  case $lintian_status in
    0) ;;
    2) fail "lintian reports errors: $(grep -c '^E: ' <<<"$lintian_out")" ;;
    *) fail "lintian failed with status $lintian_status" ;;
  esac
else
  fail "lintian is not installed (scripts/install-deps.sh installs it)"
fi

# Files.
contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}')
for file in ./etc/OpenCL/vendors/lanewise.icd ./usr/bin/lanewise ".$libdir/liblanewise.so" \
            ".$libdir/lanewise/lanewise-llvm-spirv" ".$libdir/lanewise/lanewise-compile-server" \
            ".$libdir/lanewise/liblanewise-jit.so" \
            ./usr/share/doc/lanewise/README.md ./usr/share/doc/lanewise/copyright \
            ./usr/share/doc/lanewise/changelog.gz \
            ./usr/share/doc/lanewise/CHANGELOG.md ./usr/share/doc/lanewise/cts.md \
            ./usr/share/man/man1/lanewise.1.gz ./usr/share/man/man1/lanewise-run.1.gz \
            ./usr/share/man/man1/lanewise-compile.1.gz; do
  grep -qx -- "$file" <<<"$contents" || fail "the package lacks $file"
done
grep -q "tests\|\.a$\|\.h$\|CMake" <<<"$contents" && fail "the package holds build files: $contents"

root="$work/root"
dpkg-deb -x "$deb" "$root"
icd=$(cat "$root/etc/OpenCL/vendors/lanewise.icd")
[ "$icd" = "$libdir/liblanewise.so" ] || fail "the ICD entry names '$icd'"
grep -q "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
  "$root/usr/share/doc/lanewise/copyright" || fail "the copyright file is not machine-readable"
grep -qx "License: Apache-2.0" "$root/usr/share/doc/lanewise/copyright" ||
  fail "the copyright file does not name Apache-2.0"
changelog=$(zcat "$root/usr/share/doc/lanewise/changelog.gz" | head -1)
[ "$changelog" = "lanewise ($version) unstable; urgency=medium" ] ||
  fail "the Debian changelog begins '$changelog', not with version $version"
grep -q "^\.TH LANEWISE-COMPILE 1" <(zcat "$root/usr/share/man/man1/lanewise-compile.1.gz") ||
  fail "lanewise-compile.1 is not a manual page"
grep -qF "\"lanewise $version\"" <(zcat "$root/usr/share/man/man1/lanewise.1.gz") ||
  fail "lanewise.1 does not carry version $version"

# The unpacked tree on its own: the command finds the library beside it,
# the library its translator beside itself; nothing of the build tree.
export LANEWISE_CACHE=0
unset LANEWISE_LIBRARY LANEWISE_BUILD_TRANSLATOR LANEWISE_CLANG LANEWISE_LLVM_SPIRV
info=$("$root/usr/bin/lanewise" info 2>&1) || fail "lanewise info failed: $info"
grep -q "^Library  *$root$libdir/liblanewise.so" <<<"$info" ||
  fail "lanewise info did not load the package's library: $(head -1 <<<"$info")"
grep -q "OpenCL 3.0 Lanewise $version" <<<"$info" || fail "the platform version is not $version"
[ "$("$root/usr/bin/lanewise" --version)" = "lanewise $version" ] || fail "--version is not $version"
printf 'kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n' >"$work/twice.cl"
(cd "$work" && "$root/usr/bin/lanewise" compile twice.cl) || fail "lanewise compile failed"
out=$("$root/usr/bin/lanewise" run "$work/twice.cl" --kernel twice --global 4 \
      --arg p=buffer:int:4:range=3 --print p 2>&1)
[ "$out" = "p = {6, 8, 10, 12}" ] || fail "a source kernel ran to '$out'"
for helper in lanewise-llvm-spirv lanewise-compile-server; do
  "$root$libdir/lanewise/$helper" --version >/dev/null 2>&1 || fail "$helper does not run where it is installed"
done
# The ICD loader finds the library through the package's entry, its path
# taken under the throw-away root, in a vendors folder of its own.
mkdir "$work/vendors"
echo "$root$icd" >"$work/vendors/lanewise.icd"
out=$(OCL_ICD_VENDORS="$work/vendors" clinfo -l 2>&1)
grep -q "Platform #0: Lanewise" <<<"$out" || fail "clinfo -l printed '$out'"

[ $failures -eq 0 ] || exit 1
echo "package check: $(basename "$deb") has its fields and files, no lintian errors, and works unpacked"
