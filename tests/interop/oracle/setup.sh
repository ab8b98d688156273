#!/bin/bash
# setup.sh - prepare the OMFS "reference oracle": a tiny qemu VM that runs the
# real Linux kernel OMFS driver (omfs.ko) from a stock Debian kernel package.
#
# Idempotent: re-running only redoes what is missing.  Everything it builds
# lives under $ORACLE_CACHE (default /var/cache/karma-manager-oracle).
#
# Environment:
#   ORACLE_CACHE   cache folder (default /var/cache/karma-manager-oracle)
#   ORACLE_KPKG    kernel package to use (default: what linux-image-amd64
#                  depends on, resolved once and then pinned in the cache)
#   ORACLE_REFRESH=1  re-resolve the kernel package and rebuild the initramfs
#   ORACLE_NO_APT=1   never call apt-get install (fail if tools are missing)
set -euo pipefail

CACHE=${ORACLE_CACHE:-/var/cache/karma-manager-oracle}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

mkdir -p "$CACHE"/debs "$CACHE"/kernel

# ---------------------------------------------------------------- host tools
need_pkgs=()
for spec in qemu-system-x86:/usr/bin/qemu-system-x86_64 \
            cpio:/usr/bin/cpio \
            kmod:/usr/sbin/modinfo \
            xz-utils:/usr/bin/xz; do
    pkg=${spec%%:*}; file=${spec#*:}
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' \
       || [ ! -e "$file" ]; then
        need_pkgs+=("$pkg")
    fi
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
    [ "${ORACLE_NO_APT:-0}" = 1 ] && die "missing packages: ${need_pkgs[*]}"
    log "installing: ${need_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null; then
        apt-get update >/dev/null
        apt-get install -y --no-install-recommends "${need_pkgs[@]}" >/dev/null
    fi
fi

# fetch_deb PKG -> path of PKG's .deb in $CACHE/debs (downloaded once)
fetch_deb() {
    local f
    f=$(ls "$CACHE"/debs/"$1"_*.deb 2>/dev/null | head -n1 || true)
    if [ -z "$f" ]; then
        log "downloading $1 (apt-get download; nothing is installed)"
        ( cd "$CACHE/debs" && { apt-get download "$1" >/dev/null 2>&1 ||
            { apt-get update >/dev/null 2>&1 && apt-get download "$1" >/dev/null 2>&1; }; } ) ||
            return 1
        f=$(ls "$CACHE"/debs/"$1"_*.deb | head -n1)
    fi
    echo "$f"
}

# ------------------------------------------- busybox for the guest (deb only)
BBROOT="$CACHE/busybox"
if [ ! -x "$BBROOT/bin/busybox" ]; then
    bbdeb=$(fetch_deb busybox-static) || die "cannot download busybox-static"
    rm -rf "$BBROOT"; mkdir -p "$BBROOT"
    dpkg-deb -x "$bbdeb" "$BBROOT"
fi
BUSYBOX="$BBROOT/bin/busybox"
[ -x "$BUSYBOX" ] || die "no busybox in busybox-static package"

# ------------------------------------------------------- kernel package (deb)
KPKG=${ORACLE_KPKG:-}
if [ -z "$KPKG" ] && [ "${ORACLE_REFRESH:-0}" != 1 ] && [ -s "$CACHE/kernel.pkg" ]; then
    KPKG=$(cat "$CACHE/kernel.pkg")
fi
if [ -z "$KPKG" ]; then
    resolve() { apt-cache depends linux-image-amd64 2>/dev/null |
                awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }
    KPKG=$(resolve)
    if [ -z "$KPKG" ]; then apt-get update >/dev/null; KPKG=$(resolve); fi
    [ -n "$KPKG" ] || die "cannot resolve the kernel package behind linux-image-amd64"
fi
log "kernel package: $KPKG"

deb=
KROOT="$CACHE/kernel/$KPKG"
if [ ! -e "$KROOT/.extracted" ]; then
    if ! deb=$(fetch_deb "$KPKG"); then
        # a pinned ABI can leave the archive; re-resolve unless forced
        [ -n "${ORACLE_KPKG:-}" ] && die "cannot download $KPKG"
        KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null |
               awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
        log "pinned kernel not downloadable; now using $KPKG"
        deb=$(fetch_deb "$KPKG") || die "cannot download $KPKG"
        KROOT="$CACHE/kernel/$KPKG"
    fi
fi
if [ ! -e "$KROOT/.extracted" ]; then
    log "extracting $(basename "$deb")"
    rm -rf "$KROOT"; mkdir -p "$KROOT"
    dpkg-deb -x "$deb" "$KROOT"
    touch "$KROOT/.extracted"
fi
echo "$KPKG" > "$CACHE/kernel.pkg"

KVER=$(ls "$KROOT/lib/modules" | head -n1)
VMLINUZ="$KROOT/boot/vmlinuz-$KVER"
CONFIG="$KROOT/boot/config-$KVER"
MODDIR="$KROOT/lib/modules/$KVER"
[ -f "$VMLINUZ" ] || die "no vmlinuz in $deb"
[ -f "$CONFIG" ] || die "no kernel config in $deb"
if grep -q '^CONFIG_OMFS_FS=m' "$CONFIG"; then
    log "CONFIG_OMFS_FS=m in $KVER"
elif grep -q '^CONFIG_OMFS_FS=y' "$CONFIG"; then
    log "CONFIG_OMFS_FS=y (built in) in $KVER"
else
    die "kernel $KVER has no OMFS driver (CONFIG_OMFS_FS not set)"
fi

# An uncompressed copy of the kernel: qemu boots an ELF vmlinux directly
# (PVH entry point, CONFIG_PVH=y), which skips the BIOS-side loader and the
# in-guest xz decompression - under TCG that halves the boot time.
VMLINUX="$KROOT/vmlinux-$KVER"
if [ ! -s "$VMLINUX" ]; then
    off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$VMLINUZ" | head -n1 | cut -d: -f1 || true)
    if [ -n "$off" ] && xz -dc --single-stream < <(tail -c +$((off + 1)) "$VMLINUZ") > "$VMLINUX.tmp" 2>/dev/null \
       && [ "$(head -c 4 "$VMLINUX.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] \
       && grep -q '^CONFIG_PVH=y' "$CONFIG"; then
        mv "$VMLINUX.tmp" "$VMLINUX"
        log "extracted ELF vmlinux for PVH boot"
    else
        rm -f "$VMLINUX.tmp"
        log "no PVH-bootable vmlinux (not xz or no CONFIG_PVH): will boot the bzImage"
    fi
fi
[ -s "$VMLINUX" ] || VMLINUX=

# --------------------------------------------- module closure (via modinfo)
# Find a module file by name (with - and _ treated alike), possibly compressed.
find_mod() {
    local n=${1//-/_}
    find "$MODDIR/kernel" -type f \( -name "$n.ko*" -o -name "${n//_/-}.ko*" \) | head -n1
}
is_builtin() {
    local n=${1//-/_}
    [ -f "$MODDIR/modules.builtin" ] &&
        sed 's/-/_/g' "$MODDIR/modules.builtin" | grep -q "/$n\.ko$"
}
ORDER=()
declare -A SEEN=()
add_mod() {   # depth-first: dependencies before the module itself
    local name=${1//-/_} f deps d
    [ -n "${SEEN[$name]:-}" ] && return 0
    SEEN[$name]=1
    if is_builtin "$name"; then log "  $name: built in"; return 0; fi
    f=$(find_mod "$name")
    [ -n "$f" ] || die "module $name not found under $MODDIR"
    deps=$(/usr/sbin/modinfo -F depends "$f" | tr ',' ' ')
    for d in $deps; do add_mod "$d"; done
    ORDER+=("$name:$f")
}
# omfs itself, the virtio disk it will sit on, and the PCI transport.
WANT=(virtio_pci virtio_blk omfs)
for m in "${WANT[@]}"; do add_mod "$m"; done

# ------------------------------------------------------------- initramfs
STAMP="$KPKG $(cat "$HERE/setup.sh" "$HERE/guest-init.sh" | sha256sum | cut -c1-16) $(sha256sum "$BUSYBOX" | cut -c1-16)"
BASE="$CACHE/initramfs-base.cpio"
if [ -f "$BASE" ] && [ "$(cat "$CACHE/initramfs.stamp" 2>/dev/null)" = "$STAMP" ] \
   && [ "${ORACLE_REFRESH:-0}" != 1 ]; then
    log "initramfs up to date: $BASE"
else
    log "building initramfs"
    STAGE=$(mktemp -d /tmp/omfs-oracle-stage.XXXXXX)
    trap 'rm -rf "$STAGE"' EXIT
    mkdir -p "$STAGE"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,mnt,tmp,job,lib/oracle}
    cp "$BUSYBOX" "$STAGE/bin/busybox"
    # one symlink per applet, at the path busybox itself reports
    for app in $("$BUSYBOX" --list-full); do
        [ -e "$STAGE/$app" ] || ln -s /bin/busybox "$STAGE/$app"
    done
    : > "$STAGE/lib/oracle/modules"
    for e in "${ORDER[@]}"; do
        name=${e%%:*}; f=${e#*:}
        case "$f" in
            *.ko.xz)  xz -dc "$f"   > "$STAGE/lib/oracle/$name.ko" ;;
            *.ko.zst) zstd -dc "$f" > "$STAGE/lib/oracle/$name.ko" ;;
            *.ko.gz)  gzip -dc "$f" > "$STAGE/lib/oracle/$name.ko" ;;
            *)        cp "$f" "$STAGE/lib/oracle/$name.ko" ;;
        esac
        echo "$name" >> "$STAGE/lib/oracle/modules"
    done
    install -m 0755 "$HERE/guest-init.sh" "$STAGE/init"
    mknod -m 600 "$STAGE/dev/console" c 5 1 2>/dev/null || true
    echo "$KVER" > "$STAGE/lib/oracle/kernel-version"
    ( cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort |
        cpio --quiet -o -H newc --owner=0:0 ) > "$BASE.tmp"
    mv "$BASE.tmp" "$BASE"
    echo "$STAMP" > "$CACHE/initramfs.stamp"
    rm -rf "$STAGE"; trap - EXIT
fi

# -------------------------------------------------------------- summary
OMFS_KO=$(find_mod omfs)
cat > "$CACHE/oracle.env" <<EOF
# written by setup.sh
ORACLE_KPKG='$KPKG'
ORACLE_KVER='$KVER'
ORACLE_VMLINUZ='$VMLINUZ'
ORACLE_VMLINUX='$VMLINUX'
ORACLE_INITRAMFS='$BASE'
ORACLE_OMFS_KO='$OMFS_KO'
ORACLE_MODULES='$(printf '%s ' "${ORDER[@]%%:*}")'
EOF
log "kernel:   $VMLINUZ${VMLINUX:+ (+ ELF $VMLINUX)}"
log "omfs.ko:  $OMFS_KO ($(/usr/sbin/modinfo -F vermagic "$OMFS_KO" | cut -d' ' -f1))"
log "modules:  ${ORDER[*]%%:*}"
log "initramfs: $BASE ($(du -k "$BASE" | cut -f1) KiB)"
if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
    log "KVM looks usable: omfs-oracle will try it first (--accel tcg to avoid)"
else
    log "no usable KVM (no /dev/kvm or no vmx/svm CPU flag): TCG software emulation"
fi
log "ready: $CACHE/oracle.env"
