#!/bin/sh
# The Debian 13 (trixie) chroot of the end-to-end suite's Debian 13 cells (test/e2e/trixie.test.ts).
# Run as root.
#   sh .ci/trixie-chroot.sh build DIR        debootstrap trixie into DIR (an empty or missing
#                                            directory), install the cells' packages, time each step
#   sh .ci/trixie-chroot.sh mount DIR REPO   bind-mount what the cells share with the machine: /proc,
#                                            /sys, /dev, /dev/pts, /dev/shm, /tmp (X socket, session
#                                            files), the repository at its own path, this node
#   sh .ci/trixie-chroot.sh umount DIR       undo every mount under DIR (lazily if one is busy) and
#                                            fail if any is left
#   sh .ci/trixie-chroot.sh remove DIR       umount, then delete DIR, only when nothing is mounted in it
# Nothing is cached: .ci/run builds a fresh DIR each run and removes it on every path.
set -eu
MIRROR="${TERMSIGHT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# What the cells run: kitty and Alacritty (software OpenGL), xterm, tmux, rxvt-unicode, GNOME
# Terminal (VTE) and Konsole on a private D-Bus, foot in weston (its X11 backend), mosh; x11-utils
# for the harness; fonts the same as on the machine. Konsole, foot and weston add about 280
# packages (120 MB to fetch, 460 MB installed) and about 50 s of apt-get on the 2-core machine;
# Alacritty one package (2.4 MB).
PACKAGES="kitty kitty-terminfo libgl1-mesa-dri xterm tmux rxvt-unicode gnome-terminal konsole foot weston alacritty dbus-daemon mosh x11-utils fonts-dejavu-core fontconfig"

# The mount points under DIR, deepest first (from /proc/self/mountinfo; field 5 is the mount point).
mounts_under() {
  awk -v root="$1" '$5 == root || index($5, root "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

build() {
  dir="$1"
  t0=$(date +%s)
  if ! command -v debootstrap >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null
  fi
  debootstrap --variant=minbase trixie "$dir" "$MIRROR" >"$dir.debootstrap.log" 2>&1 ||
    { tail -20 "$dir.debootstrap.log" >&2; exit 1; }
  rm -f "$dir.debootstrap.log"
  t1=$(date +%s)
  echo "[trixie] debootstrap: $((t1 - t0)) s"
  # postinst scripts want /proc and /dev; mounted only for the install.
  for m in proc sys dev dev/pts; do mount --bind "/$m" "$dir/$m"; done
  status=0
  chroot "$dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
    "apt-get update -q && apt-get install -y -q --no-install-recommends $PACKAGES && apt-get clean" \
    >"$dir.apt.log" 2>&1 || status=$?
  for m in dev/pts dev sys proc; do umount "$dir/$m"; done
  [ "$status" -eq 0 ] || { tail -20 "$dir.apt.log" >&2; rm -f "$dir.apt.log"; exit "$status"; }
  rm -f "$dir.apt.log"
  t2=$(date +%s)
  echo "[trixie] apt-get install: $((t2 - t1)) s"
  for p in kitty xterm tmux rxvt-unicode gnome-terminal libvte-2.91-0 konsole foot weston alacritty mosh; do
    chroot "$dir" dpkg-query -W -f '[trixie] ${Package} ${Version}\n' "$p"
  done
}

# Binds $1 (a directory or a file on the machine) onto the same path inside DIR.
bind_same() {
  dir="$1"
  path="$2"
  if [ -d "$path" ]; then
    mkdir -p "$dir$path"
  else
    mkdir -p "$dir$(dirname "$path")"
    [ -e "$dir$path" ] || : >"$dir$path"
  fi
  mount --bind "$path" "$dir$path"
}

do_mount() {
  dir="$1"
  repo="$(cd "$2" && pwd -P)"
  node="$(readlink -f "$(command -v node)")"
  for m in /proc /sys /dev /dev/pts /dev/shm /tmp; do mount --bind "$m" "$dir$m"; done
  # The repository is already inside when it lives under /tmp (a clean clone there).
  [ "$dir$repo" -ef "$repo" ] || bind_same "$dir" "$repo"
  bind_same "$dir" "$node"
}

do_umount() {
  dir="$(cd "$1" && pwd -P)"
  for m in $(mounts_under "$dir"); do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
  left="$(mounts_under "$dir")"
  if [ -n "$left" ]; then
    echo "[trixie] still mounted under $dir: $left" >&2
    exit 1
  fi
}

case "${1:-}" in
build) build "$2" ;;
mount) do_mount "$2" "$3" ;;
umount) do_umount "$2" ;;
remove)
  [ -d "$2" ] || exit 0
  do_umount "$2"
  # Nothing is mounted under DIR now (checked above), so rm cannot reach the machine through a bind.
  rm -rf --one-file-system "$2"
  ;;
*)
  echo "usage: $0 build DIR | mount DIR REPO | umount DIR | remove DIR" >&2
  exit 2
  ;;
esac
