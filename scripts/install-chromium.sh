#!/usr/bin/env bash
# Installs Debian's (or Ubuntu's) Chromium for the browser tests (test/web/). Idempotent: does nothing
# when a Chromium is already there. Never downloads a browser from elsewhere: the tests drive the
# system's package through playwright-core. Needs root and apt-get; otherwise it says why and exits 0,
# and the browser tests then skip with that reason.
set -euo pipefail

for candidate in "${REG_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "install-chromium: $candidate is already installed"
    exit 0
  fi
done

if [ "$(id -u)" != "0" ]; then
  echo "install-chromium: not root, so Chromium is not installed (the browser tests will skip)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here, so Chromium is not installed (the browser tests will skip)"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Debian names the package chromium; Ubuntu's chromium-browser is a snap shim, tried only as a fallback.
# A failed install (no network, no such package) is reported, not fatal: the browser tests then skip.
if apt-get update -q && { apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core ||
  apt-get install -y -q --no-install-recommends chromium-browser; }; then
  echo "install-chromium: installed $(command -v chromium || command -v chromium-browser)"
else
  echo "install-chromium: apt-get could not install Chromium (the browser tests will skip)"
fi
