#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages, unless it is installed already.
set -euo pipefail

if command -v pg_ctlcluster >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  exit 0
fi

echo "== installing PostgreSQL"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql postgresql-client >/dev/null
