#!/usr/bin/env bash
# compose.yaml's one-shot `certs` service (image eventstore/es-gencert-cli): a private CA and one
# certificate each for EventStoreDB, PostgreSQL and the ledger's HTTPS, made once into the `certs`
# volume (mounted read-only where they are used). The CA's key stays in the `ca-key` volume, which
# only this service mounts. Remove both volumes to make everything anew.
set -euo pipefail

ca=/ca-key/ca
if [ ! -f "$ca/ca.key" ]; then
  es-gencert-cli create-ca -out "$ca"
fi
mkdir -p /certs/ca
cp "$ca/ca.crt" /certs/ca/ca.crt

# node NAME OWNER: a certificate for the host NAME (and localhost, for the health checks).
node() {
  if [ ! -f "/certs/$1/node.crt" ]; then
    es-gencert-cli create-node -ca-certificate "$ca/ca.crt" -ca-key "$ca/ca.key" -out "/certs/$1" \
      -dns-names "$1,localhost" -ip-addresses 127.0.0.1
  fi
  # Each key readable by the one user that serves it: KurrentDB is uid 1001, node 1000, postgres 999.
  chown -R "$2" "/certs/$1"
  chmod 0444 "/certs/$1/node.crt"
  chmod 0400 "/certs/$1/node.key"
}
node eventstore 1001:1001
node postgres 999:999
node ledger 1000:1000
chmod 0444 /certs/ca/ca.crt
echo "certificates ready in /certs"
