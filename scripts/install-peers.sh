#!/usr/bin/env bash
# Installs the pinned npm peer packages (DuckDB's Node client) into
# bench/peers/node_modules, and s3rver for the remote-source tests into
# tests/servers/node_modules. Idempotent: does nothing when the pinned version
# is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/bench/peers"
want=$(node -e 'console.log(require("./package.json").dependencies["@duckdb/node-api"])')
have=$(node -e 'try{console.log(require("./node_modules/@duckdb/node-api/package.json").version)}catch(e){console.log("")}')
if [ "$want" != "$have" ]; then
  echo "install-peers: installing @duckdb/node-api@$want"
  npm install --no-save --loglevel=error >/dev/null
fi

# The S3 server the remote-source tests start (tests/servers/package.json,
# pinned exact; .npmrc there turns the lockfile off).
cd "$root/tests/servers"
want=$(node -e 'console.log(require("./package.json").dependencies["s3rver"])')
have=$(node -e 'try{console.log(require("./node_modules/s3rver/package.json").version)}catch(e){console.log("")}')
if [ "$want" != "$have" ]; then
  echo "install-peers: installing s3rver@$want"
  npm install --no-save --package-lock=false --loglevel=error >/dev/null
fi
