#!/bin/sh
# Builds a Debian 13 (trixie) chroot with the terminals the Debian 13 cells of the end-to-end suite
# would use, and times each step. Not called by .ci/run yet (no cell uses it yet): run it by hand,
# as root, to see the figure. DIR defaults to /var/cache/termsight-trixie (made here, not read).
#   sh .ci/trixie-chroot.sh [DIR]
set -eu
DIR="${1:-/var/cache/termsight-trixie}"
MIRROR="${TERMSIGHT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PACKAGES="kitty kitty-terminfo xterm tmux rxvt-unicode libgl1-mesa-dri fonts-dejavu-core fontconfig"
t0=$(date +%s)
if [ ! -x "$DIR/usr/bin/apt-get" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null
  debootstrap --variant=minbase trixie "$DIR" "$MIRROR"
fi
t1=$(date +%s)
echo "[trixie] debootstrap: $((t1 - t0)) s"
chroot "$DIR" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $PACKAGES" >/dev/null
t2=$(date +%s)
echo "[trixie] apt-get install $PACKAGES: $((t2 - t1)) s"
for p in kitty xterm tmux rxvt-unicode; do
  chroot "$DIR" dpkg-query -W -f '[trixie] ${Package} ${Version}\n' "$p"
done
du -sh "$DIR" | sed 's/^/[trixie] size: /'
