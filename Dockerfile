# fixloop as a GitHub App: `docker build -t fixloop . && docker run --env-file .env -p 3000:3000 fixloop`
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

# Never root: a repository's test suite runs as this user.
RUN useradd --create-home --uid 10001 fixloop && mkdir -p /data && chown fixloop /data
USER fixloop
ENV NODE_ENV=production FIXLOOP_DATA_DIR=/data PORT=3000
VOLUME /data
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "bin/fixloop.js", "serve"]
