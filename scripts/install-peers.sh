#!/usr/bin/env bash
# Installs the pinned npm peer packages (DuckDB's Node client) into
# bench/peers/node_modules. Idempotent: does nothing when the pinned version
# is already there.
set -euo pipefail
cd "$(dirname "$0")/../bench/peers"
want=$(node -e 'console.log(require("./package.json").dependencies["@duckdb/node-api"])')
have=$(node -e 'try{console.log(require("./node_modules/@duckdb/node-api/package.json").version)}catch(e){console.log("")}')
if [ "$want" != "$have" ]; then
  echo "install-peers: installing @duckdb/node-api@$want"
  npm install --no-save --loglevel=error >/dev/null
fi
