#!/bin/sh
# Installs what the end-to-end suite (test/e2e/) needs on Debian 12: a virtual X server, the terminal
# emulators and multiplexers under test (mlterm only for the facts cells, test/e2e/facts.test.ts), ImageMagick for screenshots, x11-utils (xwininfo, xprop) for window titles, Mesa's software OpenGL for kitty,
# liblcms2-utils (transicc) and icc-profiles-free for the colour tests against lcms (test/decode/colour-lcms.test.ts),
# Chromium for xterm.js (VS Code's terminal engine) in a page, a monospace font with braille, libwebp's
# tools (dwebp, the oracle of the WebP and VP8 tests), libjxl-tools (djxl, the oracle of the JPEG XL tests) and gcc (builds the tests' WebPAnimDecoder reference), and
# debootstrap for the Debian 13 chroot (.ci/trixie-chroot.sh). Run as root (or with sudo) before `npm test`.
set -eu
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
  xvfb xauth x11-utils \
  xterm \
  kitty kitty-terminfo libgl1-mesa-dri \
  tmux screen \
  mlterm \
  imagemagick \
  webp libjxl-tools gcc libc6-dev liblcms2-utils icc-profiles-free libheif-examples \
  chromium \
  fonts-dejavu-core fontconfig \
  debootstrap
