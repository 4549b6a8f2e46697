# fixloop as a GitHub App (docs/github-app.md#run-it-in-a-container):
#   docker build -t fixloop .
#   docker run --env-file .env -e PRIVATE_KEY_PATH=/run/secrets/fixloop.pem \
#     -v "$PWD/fixloop.private-key.pem:/run/secrets/fixloop.pem:ro" -v fixloop-data:/data -p 3000:3000 fixloop
FROM node:24-slim

# git clones and pushes; python3 lets the repair engine read Python code; bubblewrap is the sandbox
# (where the platform allows user namespaces, docs/security.md); util-linux brings prlimit; tini
# reaps the process trees of repositories' test suites.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates python3 python3-pytest bubblewrap util-linux tini \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
# The `node` dev dependency (Node 24 for npm scripts) is not needed here: the image is Node 24.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY app.yml ./

# Never root: a repository's test suite runs as this user. /app stays root's (readable, not
# writable: the running code cannot change itself); the data folder is the user's.
RUN useradd --create-home --uid 10001 fixloop && mkdir -p /data && chown fixloop:fixloop /data
USER fixloop
ENV NODE_ENV=production FIXLOOP_DATA_DIR=/data PORT=3000
VOLUME /data
# Relative paths from an .env made for a checkout (FIXLOOP_DATA_DIR=./.fixloop, a key file next to
# it) resolve in the data folder, which this user can write, not in /app.
WORKDIR /data
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "/app/bin/fixloop.js", "serve"]
