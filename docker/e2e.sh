#!/usr/bin/env bash
# Docker self-play, end to end: build the image, play both compose matches, check what they wrote.
#
#   bash docker/e2e.sh
#
# On a Debian machine, run as root, it installs what is missing (docker.io, docker-compose,
# debootstrap), starts a Docker daemon if none is running (and stops only the one it started),
# uses python:3.11-slim when it is present or can be pulled and otherwise builds a local Debian
# base image with debootstrap (Python 3.11, venv, pip, the host's trusted certificate
# authorities), builds docker/Dockerfile on it with the host's pip index settings, then plays
# docker/compose.yaml (heads-up no-limit) and docker/compose.3p.yaml (three players). Each match
# passes when every container exits 0, the log in the mounted results folder passes
# `pokerbot log check` with every hand played, and every bot played the strategy it was given.
# Exit 0 when every check passes, 1 with a one-line reason otherwise. Images are kept and
# reused; containers and networks are removed.
#
# Settings (environment variables, with their defaults):
#   E2E_HANDS_2P=200 E2E_HANDS_3P=100  hands in each match
#   E2E_MATCH_TIMEOUT=900              seconds a match may take
#   BASE_IMAGE=                        base image to build on (empty: chosen as above)
#   E2E_OUT=                           folder for logs and results (empty: a new one under /tmp)
#   E2E_COMPOSE=                       compose command (empty: `docker compose` if present, else docker-compose)
#   E2E_DEBIAN_MIRROR=                 debootstrap mirror (empty: the host's Debian mirror)
# See docs/docker.md.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
readonly IMAGE=pokerbot:local
readonly SLIM_IMAGE=python:3.11-slim
readonly LOCAL_BASE=pokerbot-base:bookworm
readonly BASE_SUITE=bookworm
readonly BASE_PACKAGES=python3,python3-venv,python3-pip,ca-certificates
readonly BASE_RECIPE=2 # bump when build_local_base changes what goes into the base image
readonly HANDS_2P=${E2E_HANDS_2P:-200}
readonly HANDS_3P=${E2E_HANDS_3P:-100}
readonly MATCH_TIMEOUT=${E2E_MATCH_TIMEOUT:-900}
OUT=${E2E_OUT:-}
STARTED=$SECONDS
DOCKERD_PID=""
ROOTFS=""
PROJECTS=()
COMPOSE=()
PHASES=()
PHASE_START=$SECONDS

say() { printf '[e2e %4ds] %s\n' "$((SECONDS - STARTED))" "$*"; }
die() {
    printf 'e2e: error: %s\n' "$*" >&2
    exit 1
}
# Records how long the phase that just ended took.
phase_done() {
    PHASES+=("$1 $((SECONDS - PHASE_START)) s")
    PHASE_START=$SECONDS
}
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 || true; }

cleanup() {
    local status=$?
    trap - EXIT
    set +e
    local project
    for project in "${PROJECTS[@]}"; do
        docker ps -aq --filter "label=com.docker.compose.project=$project" | xargs -r docker rm -f >/dev/null 2>&1
        docker network ls -q --filter "label=com.docker.compose.project=$project" | xargs -r docker network rm >/dev/null 2>&1
    done
    [[ -n $ROOTFS ]] && remove_rootfs
    if [[ -n $DOCKERD_PID ]]; then
        kill -TERM "$DOCKERD_PID" 2>/dev/null
        local waited=0
        while kill -0 "$DOCKERD_PID" 2>/dev/null && ((waited < 30)); do
            sleep 1
            waited=$((waited + 1))
        done
        kill -0 "$DOCKERD_PID" 2>/dev/null && kill -KILL "$DOCKERD_PID"
        say "stopped the Docker daemon this script started (pid $DOCKERD_PID)"
    fi
    exit "$status"
}

# ---- tools -------------------------------------------------------------------------------

apt_install() {
    ((EUID == 0)) || die "$1 is missing and installing it needs root (apt-get install $*)"
    command -v apt-get >/dev/null || die "$1 is missing and this is not a Debian machine (no apt-get)"
    say "installing $* (apt-get; log $OUT/apt.log)"
    local install=(apt-get -o DPkg::Lock::Timeout=600 install -y -q "$@")
    # The package lists are refreshed only when the install cannot go ahead without it.
    DEBIAN_FRONTEND=noninteractive "${install[@]}" >>"$OUT/apt.log" 2>&1 || {
        apt-get -o DPkg::Lock::Timeout=600 update -q >>"$OUT/apt.log" 2>&1 &&
            DEBIAN_FRONTEND=noninteractive "${install[@]}" >>"$OUT/apt.log" 2>&1
    } || die "apt-get install $* failed: $(last_line "$OUT/apt.log") (see $OUT/apt.log)"
}

# What is missing, installed at once: the engine (docker.io) when there is neither a daemon nor
# dockerd, compose when neither `docker compose` nor docker-compose runs, and (as root, for the
# local base image) debootstrap.
install_tools() {
    local missing=()
    if ! command -v docker >/dev/null || { ! docker info >/dev/null 2>&1 && ! command -v dockerd >/dev/null; }; then
        missing+=(docker.io)
    fi
    if [[ -n ${E2E_COMPOSE:-} ]]; then
        read -r -a COMPOSE <<<"$E2E_COMPOSE"
    elif command -v docker >/dev/null && docker compose version >/dev/null 2>&1; then
        COMPOSE=(docker compose)
    else
        command -v docker-compose >/dev/null || missing+=(docker-compose)
        COMPOSE=(docker-compose)
    fi
    if ((EUID == 0)) && [[ -z ${BASE_IMAGE:-} ]] && ! command -v debootstrap >/dev/null; then
        missing+=(debootstrap)
    fi
    if ((${#missing[@]})); then apt_install "${missing[@]}"; fi
    "${COMPOSE[@]}" version >/dev/null 2>&1 || die "the compose command '${COMPOSE[*]}' does not run"
}

start_daemon() {
    local error
    if error=$(docker info 2>&1 >/dev/null); then
        say "using the running Docker daemon ($(docker version --format '{{.Server.Version}}'))"
        return
    fi
    [[ $error == *"permission denied"* ]] && die "cannot reach the Docker daemon: permission denied (run as root or join the docker group)"
    ((EUID == 0)) || die "no Docker daemon is running and starting one needs root"
    command -v dockerd >/dev/null || die "no Docker daemon is running and dockerd is not installed"
    dockerd >"$OUT/dockerd.log" 2>&1 &
    DOCKERD_PID=$!
    local waited=0
    until docker info >/dev/null 2>&1; do
        kill -0 "$DOCKERD_PID" 2>/dev/null || {
            DOCKERD_PID=""
            die "dockerd exited at start: $(last_line "$OUT/dockerd.log") (see $OUT/dockerd.log)"
        }
        ((waited < 60)) || die "dockerd did not answer within 60 s (see $OUT/dockerd.log)"
        sleep 1
        waited=$((waited + 1))
    done
    say "started a Docker daemon (pid $DOCKERD_PID, $(docker version --format '{{.Server.Version}}'), log $OUT/dockerd.log)"
}

# ---- base image --------------------------------------------------------------------------

host_debian_mirror() {
    local mirror=""
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
        mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
    fi
    if [[ -z $mirror && -f /etc/apt/sources.list ]]; then
        mirror=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list)
    fi
    printf '%s\n' "${mirror:-http://deb.debian.org/debian}"
}

# The host's extra certificate authorities: the files under /usr/local/share/ca-certificates.
host_ca_files() {
    find /usr/local/share/ca-certificates -type f -name '*.crt' 2>/dev/null | LC_ALL=C sort
}

local_base_inputs() {
    {
        printf '%s\n' "recipe=$BASE_RECIPE suite=$BASE_SUITE packages=$BASE_PACKAGES"
        local file
        while IFS= read -r file; do cat "$file"; done < <(host_ca_files)
        cat /etc/ssl/certs/ca-certificates.crt 2>/dev/null || true
    } | sha256sum | cut -c1-16
}

# Prints the certificates of bundle $1 that bundle $2 lacks (PEM blocks compared as text).
missing_certificates() {
    awk 'FNR == 1 {file++}
        /-----BEGIN CERTIFICATE-----/ {block = ""; inside = 1}
        inside {block = block $0 "\n"}
        /-----END CERTIFICATE-----/ {inside = 0; if (file == 1) have[block] = 1; else if (!(block in have)) printf "%s", block}' \
        "$2" "$1"
}

# Removes the base image's root folder; an interrupted debootstrap may leave /proc, /sys or
# device nodes of the host mounted in it, so those are unmounted first and never descended into.
remove_rootfs() {
    local mounted
    awk -v root="$ROOTFS/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r |
        while IFS= read -r mounted; do umount -l "$mounted" 2>/dev/null || true; done
    rm -rf --one-file-system "$ROOTFS"
    ROOTFS=""
}

build_local_base() {
    local inputs=$1 mirror
    mirror=${E2E_DEBIAN_MIRROR:-$(host_debian_mirror)}
    command -v debootstrap >/dev/null || apt_install debootstrap
    ((EUID == 0)) || die "building the local base image with debootstrap needs root"
    ROOTFS=$(mktemp -d /var/tmp/pokerbot-rootfs.XXXXXX)
    say "building $LOCAL_BASE with debootstrap ($BASE_SUITE from $mirror; log $OUT/debootstrap.log)"
    # Two stages, so that dpkg skips its fsyncs while it configures the packages (second stage
    # 100 s against 136 s here, see docs/docker.md; Docker's Debian images keep the same setting).
    {
        debootstrap --foreign --variant=minbase --include="$BASE_PACKAGES" "$BASE_SUITE" "$ROOTFS" "$mirror" &&
            echo force-unsafe-io >"$ROOTFS/etc/dpkg/dpkg.cfg.d/docker-apt-speedup" &&
            chroot "$ROOTFS" /debootstrap/debootstrap --second-stage
    } >"$OUT/debootstrap.log" 2>&1 ||
        die "debootstrap failed: $(last_line "$OUT/debootstrap.log") (see $OUT/debootstrap.log)"
    # The host's certificate authorities, so that pip inside builds reaches the index the host uses.
    local file count
    count=0
    while IFS= read -r file; do
        cp "$file" "$ROOTFS/usr/local/share/ca-certificates/host-$(basename "$file")"
        count=$((count + 1))
    done < <(host_ca_files)
    chroot "$ROOTFS" update-ca-certificates >>"$OUT/debootstrap.log" 2>&1 ||
        die "update-ca-certificates failed in the base image (see $OUT/debootstrap.log)"
    if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
        missing_certificates /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt" \
            >"$ROOTFS/tmp/host-bundle.crt"
        if [[ -s $ROOTFS/tmp/host-bundle.crt ]]; then
            cat "$ROOTFS/tmp/host-bundle.crt" >>"$ROOTFS/etc/ssl/certs/ca-certificates.crt"
            count=$((count + $(grep -c 'BEGIN CERTIFICATE' "$ROOTFS/tmp/host-bundle.crt")))
        fi
        rm -f "$ROOTFS/tmp/host-bundle.crt"
    fi
    rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
    tar -C "$ROOTFS" -c . | docker import \
        --change "LABEL org.pokerbot.base-inputs=$inputs" \
        --change 'ENV LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
        --change 'CMD ["python3"]' \
        - "$LOCAL_BASE" >/dev/null || die "docker import of the base image failed"
    remove_rootfs
    say "built $LOCAL_BASE ($(docker run --rm "$LOCAL_BASE" python3 --version), $count host certificate(s) added)"
}

choose_base_image() {
    if [[ -n ${BASE_IMAGE:-} ]]; then
        docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 || timeout 600 docker pull -q "$BASE_IMAGE" >"$OUT/pull.log" 2>&1 ||
            die "the base image $BASE_IMAGE is neither present nor pullable: $(last_line "$OUT/pull.log")"
        return
    fi
    if docker image inspect "$SLIM_IMAGE" >/dev/null 2>&1; then
        BASE_IMAGE=$SLIM_IMAGE
        return
    fi
    local inputs
    inputs=$(local_base_inputs)
    if [[ $(docker image inspect -f '{{index .Config.Labels "org.pokerbot.base-inputs"}}' "$LOCAL_BASE" 2>/dev/null) == "$inputs" ]]; then
        BASE_IMAGE=$LOCAL_BASE
        return
    fi
    if timeout 120 docker pull -q "$SLIM_IMAGE" >"$OUT/pull.log" 2>&1; then
        BASE_IMAGE=$SLIM_IMAGE
        return
    fi
    say "$SLIM_IMAGE cannot be pulled: $(last_line "$OUT/pull.log")"
    build_local_base "$inputs"
    BASE_IMAGE=$LOCAL_BASE
}

# ---- project image -----------------------------------------------------------------------

# The host's pip index settings (environment first, then pip's configuration files) as build
# arguments. Local indexes (file: URLs, paths) cannot be reached from a build and are left out.
pip_setting() {
    local name=$1 variable=$2 value=${!2:-}
    if [[ -z $value ]] && command -v python3 >/dev/null; then
        value=$(python3 -m pip config list 2>/dev/null |
            awk -F= -v name="$name" '{key = $1; sub(/^[^.]*\./, "", key)}
                key == name {value = substr($0, length($1) + 2); gsub(/^'\''|'\''$/, "", value);
                             rank = ($1 ~ /^:env:/) ? 3 : ($1 ~ /^(install|wheel)\./) ? 2 : 1;
                             if (value != "" && rank > best) {best = rank; found = value}}
                END {print found}')
    fi
    local kept=() item
    for item in $value; do
        if [[ $variable == PIP_TRUSTED_HOST || $item == http://* || $item == https://* ]]; then kept+=("$item"); fi
    done
    printf '%s\n' "${kept[*]}"
}

build_image() {
    local args=(--build-arg "BASE_IMAGE=$BASE_IMAGE") setting value
    for setting in index-url:PIP_INDEX_URL extra-index-url:PIP_EXTRA_INDEX_URL trusted-host:PIP_TRUSTED_HOST; do
        value=$(pip_setting "${setting%%:*}" "${setting#*:}")
        [[ -n $value ]] && args+=(--build-arg "${setting#*:}=$value")
    done
    say "building $IMAGE on $BASE_IMAGE (log $OUT/build.log)"
    docker build -f "$REPO/docker/Dockerfile" -t "$IMAGE" "${args[@]}" "$REPO" >"$OUT/build.log" 2>&1 ||
        die "docker build failed: $(last_line "$OUT/build.log") (see $OUT/build.log)"
    # The classic builder prints "Step i/n : INSTRUCTION", then "---> Using cache" when it reuses a
    # layer: list the COPY and RUN steps it ran again (BuildKit prints otherwise: no list then).
    local summary
    summary=$(awk '/^Step [0-9]+\/[0-9]+ : / {report(); split($2, n, "/"); step = n[1] " " $4 " " $5; layer = ($4 == "COPY" || $4 == "RUN"); cached = 0; next}
                   /^ ---> Using cache/ {cached = 1}
                   function report() {if (layer) {layers++; if (!cached) rebuilt = rebuilt (rebuilt == "" ? "" : ", ") step}; layer = 0}
                   END {report(); if (layers) printf "%d of %d COPY/RUN steps rebuilt%s", split(rebuilt, r, ", ") * (rebuilt != ""), layers, (rebuilt == "" ? "" : ": " rebuilt)}' \
        "$OUT/build.log")
    say "built $IMAGE${summary:+ ($summary)}"
}

# ---- matches -----------------------------------------------------------------------------

container_of() { docker ps -aq --filter "label=com.docker.compose.project=$1" --filter "label=com.docker.compose.service=$2"; }

# run_match LABEL COMPOSE_FILE GAME HANDS STRATEGY_OF_BOT1 STRATEGY_OF_BOT2 ...
run_match() {
    local label=$1 file=$2 game=$3 hands=$4
    shift 4
    local strategies=("$@") project="pokerbot-e2e-$label" results="$OUT/$label"
    mkdir -p "$results"
    PROJECTS+=("$project")
    say "$label: $hands hands of $game, ${strategies[*]} ($file, results in $results)"
    local compose=("${COMPOSE[@]}" -p "$project" -f "$REPO/$file")
    export RESULTS_DIR=$results HANDS=$hands MATCH_NAME=e2e GAME=$game
    "${compose[@]}" down --remove-orphans >/dev/null 2>&1 || true
    "${compose[@]}" up -d --no-build >"$results/compose-up.txt" 2>&1 ||
        die "$label: compose up failed: $(last_line "$results/compose-up.txt") (see $results/compose-up.txt)"
    local services=(results dealer) seat
    for seat in "${!strategies[@]}"; do services+=("bot$((seat + 1))"); done
    local service id ids=()
    for service in "${services[@]}"; do
        id=$(container_of "$project" "$service")
        [[ -n $id ]] || die "$label: compose made no container for the service $service"
        ids+=("$id")
    done
    local codes
    codes=$(timeout "$MATCH_TIMEOUT" docker wait "${ids[@]}") || {
        for service in "${services[@]}"; do docker logs "$(container_of "$project" "$service")" >"$results/$service.txt" 2>&1; done
        die "$label: the match did not end within $MATCH_TIMEOUT s (logs in $results)"
    }
    local index=0 code failed=""
    for code in $codes; do
        service=${services[index]}
        docker logs "${ids[index]}" >"$results/$service.txt" 2>&1
        if ((code != 0)); then
            failed+="$service exited $code ($(last_line "$results/$service.txt")); "
        fi
        index=$((index + 1))
    done
    [[ $(docker inspect -f '{{.HostConfig.Init}}' "${ids[1]}") == true ]] || die "$label: the dealer does not run with init"
    "${compose[@]}" down --remove-orphans >/dev/null 2>&1 || die "$label: compose down failed"
    [[ -z $failed ]] || die "$label: ${failed%; }"
    check_match "$label" "$game" "$hands" "${strategies[@]}"
}

check_match() {
    local label=$1 game=$2 hands=$3
    shift 3
    local results="$OUT/$label" log="$OUT/$label/e2e.log"
    [[ -s $log ]] || die "$label: no match log in the results folder ($log)"
    docker run --rm --network none -v "$results:/results:ro" "$IMAGE" log check /results/e2e.log --game "$game" \
        >"$results/log-check.txt" 2>&1 ||
        die "$label: pokerbot log check failed: $(last_line "$results/log-check.txt") (see $results/log-check.txt)"
    grep -q "e2e.log: $hands hands" "$results/log-check.txt" ||
        die "$label: the log does not hold $hands hands: $(head -n 1 "$results/log-check.txt" | xargs)"
    local seat=1 strategy
    for strategy in "$@"; do
        grep -Eq "strategy .*name=$strategy( |$)" "$results/bot$seat.txt" ||
            die "$label: bot$seat did not play $strategy: $(grep -m1 -o 'strategy .*' "$results/bot$seat.txt" | xargs || last_line "$results/bot$seat.txt")"
        grep -Eq "match_over .*error=None .*hands=$hands( |$)" "$results/bot$seat.txt" ||
            die "$label: bot$seat did not finish $hands hands cleanly: $(last_line "$results/bot$seat.txt")"
        seat=$((seat + 1))
    done
    say "$label: OK: $(tail -n 1 "$results/dealer.txt"), log checked ($hands hands), strategies ${*}"
}

# ---- main --------------------------------------------------------------------------------

main() {
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    # The matches play the compose files' defaults: settings meant for a user's own runs are ignored.
    unset BOT1_STRATEGY BOT2_STRATEGY BOT3_STRATEGY SEED SEAT_PORTS SEAT1_PORT SEAT2_PORT SEAT3_PORT \
        T_RESPONSE_MS T_HAND_MS T_PER_HAND_MS
    if [[ -z $OUT ]]; then OUT=$(mktemp -d /tmp/pokerbot-e2e.XXXXXX); fi
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
    say "logs and results in $OUT"
    install_tools
    phase_done tools
    start_daemon
    phase_done daemon
    choose_base_image
    phase_done "base image"
    build_image
    phase_done "pokerbot image"
    run_match 2p docker/compose.yaml holdem-nolimit-2p "$HANDS_2P" adaptive random
    phase_done "2p match"
    run_match 3p docker/compose.3p.yaml holdem-nolimit-3p "$HANDS_3P" miximax random random
    phase_done "3p match"
    local phases
    phases=$(printf '%s, ' "${PHASES[@]}")
    say "OK: both matches played and checked in $((SECONDS - STARTED)) s (${phases%, })"
}

# Sourcing the script (the tests do) defines the functions without running anything.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then main "$@"; fi
