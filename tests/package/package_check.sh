#!/usr/bin/env bash
# The Debian package: cpack makes lanewise_<version>_amd64.deb from this
# build; its control fields, its files, and the installed tree working on
# its own, unpacked into a throw-away root (the library found through the
# package's ICD entry path under that root, the translator beside it, the
# command beside both).
set -u
config=$1  # the build's CPackConfig.cmake
version=$2 # the project's version
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
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/OpenCL/vendors/lanewise.icd ||
  fail "the ICD entry is not a conffile"

# Files.
contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}')
for file in ./etc/OpenCL/vendors/lanewise.icd ./usr/bin/lanewise ./usr/lib/liblanewise.so \
            ./usr/lib/lanewise/lanewise-llvm-spirv ./usr/lib/lanewise/lanewise-compile-server \
            ./usr/share/doc/lanewise/README.md \
            ./usr/share/doc/lanewise/CHANGELOG.md ./usr/share/doc/lanewise/cts.md \
            ./usr/share/man/man1/lanewise.1.gz ./usr/share/man/man1/lanewise-run.1.gz \
            ./usr/share/man/man1/lanewise-compile.1.gz; do
  grep -qx -- "$file" <<<"$contents" || fail "the package lacks $file"
done
grep -q "tests\|\.a$\|\.h$\|CMake" <<<"$contents" && fail "the package holds build files: $contents"

root="$work/root"
dpkg-deb -x "$deb" "$root"
icd=$(cat "$root/etc/OpenCL/vendors/lanewise.icd")
[ "$icd" = /usr/lib/liblanewise.so ] || fail "the ICD entry names '$icd'"
grep -q "^\.TH LANEWISE-COMPILE 1" <(zcat "$root/usr/share/man/man1/lanewise-compile.1.gz") ||
  fail "lanewise-compile.1 is not a manual page"
grep -qF "\"lanewise $version\"" <(zcat "$root/usr/share/man/man1/lanewise.1.gz") ||
  fail "lanewise.1 does not carry version $version"

# The unpacked tree on its own: the command finds the library beside it,
# the library its translator beside itself; nothing of the build tree.
export LANEWISE_CACHE=0
unset LANEWISE_LIBRARY LANEWISE_BUILD_TRANSLATOR LANEWISE_CLANG LANEWISE_LLVM_SPIRV
info=$("$root/usr/bin/lanewise" info 2>&1) || fail "lanewise info failed: $info"
grep -q "^Library  *$root/usr/lib/liblanewise.so" <<<"$info" ||
  fail "lanewise info did not load the package's library: $(head -1 <<<"$info")"
grep -q "OpenCL 3.0 Lanewise $version" <<<"$info" || fail "the platform version is not $version"
[ "$("$root/usr/bin/lanewise" --version)" = "lanewise $version" ] || fail "--version is not $version"
printf 'kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n' >"$work/twice.cl"
(cd "$work" && "$root/usr/bin/lanewise" compile twice.cl) || fail "lanewise compile failed"
out=$("$root/usr/bin/lanewise" run "$work/twice.cl" --kernel twice --global 4 \
      --arg p=buffer:int:4:range=3 --print p 2>&1)
[ "$out" = "p = {6, 8, 10, 12}" ] || fail "a source kernel ran to '$out'"
out=$(OCL_ICD_VENDORS="$root/usr/lib/liblanewise.so" clinfo -l 2>&1)
grep -q "Platform #0: Lanewise" <<<"$out" || fail "clinfo -l printed '$out'"

[ $failures -eq 0 ] || exit 1
echo "package check: $(basename "$deb") has its fields and files and works unpacked"
