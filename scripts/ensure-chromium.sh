#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the console's browser tests (tests/console),
# which drive /usr/bin/chromium through playwright-core. Without root or apt it only says why
# it could not: those tests then skip with a printed reason.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then echo "== Chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"; exit 0; fi

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "== Chromium is missing and cannot be installed here (needs root and apt-get): the console's browser tests will skip" >&2
  exit 0
fi

echo "== installing Chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "== Chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"
