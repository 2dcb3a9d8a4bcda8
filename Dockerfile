# Multi-stage build: compile in the Rust image, run from a small Debian image as a non-root user.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p jungle-server

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home /var/lib/jungle --create-home jungle
COPY --from=build /src/target/release/jungle-server /usr/local/bin/jungle-server
USER jungle
WORKDIR /var/lib/jungle
# The browser client is built into the binary.
ENV JUNGLE_ADDR=0.0.0.0:8080 \
    JUNGLE_LOG_JSON=true
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/jungle-server"]
