#!/usr/bin/env bash
# Runs a command on the project's Node 22 (npm scripts may be started from a shell whose `node` is older).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
exec "$@"
