#!/bin/sh
# Installs the Debian toolchain that builds the core for wasm (rustc 1.63, the wasm32 standard
# library, lld, binaryen), and Chromium for the browser test (test/browser). Idempotent: quiet and
# fast when everything is present.
set -eu
PACKAGES="rustc cargo libstd-rust-dev-wasm32 lld-14 binaryen"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing:$missing; run as root (apt-get install)" >&2
    exit 1
  fi
  # One index refresh, only when something has to be installed.
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
  echo "setup: installed$missing"
else
  echo "setup: toolchain present ($(/usr/bin/rustc --version), $(wasm-opt --version))"
fi
# Headless Chromium for test/browser (puppeteer-core drives /usr/bin/chromium).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing: chromium; run as root (apt-get install)" >&2
    exit 1
  fi
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "setup: installed chromium"
else
  echo "setup: chromium present"
fi
