// Dependencies a patch adds to a manifest: a fix should not pull in new code from outside.
import { basename } from 'node:path';

type Reader = (text: string) => Set<string>;

function packageJson(text: string): Set<string> {
  const out = new Set<string>();
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const deps = pkg[field];
      if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) out.add(name);
    }
  } catch {
    // An unparseable manifest has no readable dependencies; the tests will say the rest.
  }
  return out;
}

/** A PEP 508 requirement's distribution name, normalized (PEP 503). */
function pythonName(spec: string): string | null {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec);
  return m?.[1] ? m[1].toLowerCase().replace(/[-_.]+/g, '-') : null;
}

function requirementsTxt(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line || line.startsWith('-')) continue;
    const name = pythonName(line);
    if (name) out.add(name);
  }
  return out;
}

/** TOML sections as [name] → body lines; enough for dependency tables and arrays. */
function tomlSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current = '';
  sections.set(current, []);
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '');
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header?.[1]) {
      current = header[1].trim();
      sections.set(current, []);
    } else {
      sections.get(current)?.push(line);
    }
  }
  return sections;
}

function tomlArray(lines: string[], key: string): string[] {
  const body = lines.join('\n');
  const m = new RegExp(`^\\s*${key}\\s*=\\s*\\[([\\s\\S]*?)\\]`, 'm').exec(body);
  if (!m?.[1]) return [];
  return [...m[1].matchAll(/["']([^"']+)["']/g)].map((x) => x[1] ?? '');
}

function tomlKeys(lines: string[]): string[] {
  return lines.map((l) => /^\s*([A-Za-z0-9_.-]+|"[^"]+")\s*=/.exec(l)?.[1]?.replace(/"/g, '')).filter((k): k is string => !!k);
}

function pyprojectToml(text: string): Set<string> {
  const sections = tomlSections(text);
  const out = new Set<string>();
  for (const spec of tomlArray(sections.get('project') ?? [], 'dependencies')) {
    const name = pythonName(spec);
    if (name) out.add(name);
  }
  for (const [name, lines] of sections) {
    if (name === 'project.optional-dependencies' || name === 'dependency-groups') {
      for (const spec of lines.join('\n').matchAll(/["']([^"']+)["']/g)) {
        const dep = pythonName(spec[1] ?? '');
        if (dep) out.add(dep);
      }
    }
    if (/^tool\.poetry\.(dev-)?dependencies$|^tool\.poetry\.group\.[^.]+\.dependencies$/.test(name)) {
      for (const key of tomlKeys(lines)) if (key !== 'python') out.add(key.toLowerCase());
    }
  }
  return out;
}

function cargoToml(text: string): Set<string> {
  const out = new Set<string>();
  for (const [name, lines] of tomlSections(text)) {
    if (/(^|\.)((dev-|build-)?dependencies)$/.test(name)) for (const key of tomlKeys(lines)) out.add(key);
    const single = /(^|\.)((dev-|build-)?dependencies)\.([^.]+)$/.exec(name);
    if (single?.[4]) out.add(single[4]);
  }
  return out;
}

function goMod(text: string): Set<string> {
  const out = new Set<string>();
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (/^require\s*\($/.test(line)) inBlock = true;
    else if (inBlock && line === ')') inBlock = false;
    else if (inBlock && line) out.add(line.split(/\s+/)[0] ?? '');
    else {
      const single = /^require\s+(\S+)\s+\S+/.exec(line);
      if (single?.[1]) out.add(single[1]);
    }
  }
  out.delete('');
  return out;
}

function pomXml(text: string): Set<string> {
  const out = new Set<string>();
  for (const dep of text.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const group = /<groupId>\s*([^<\s]+)\s*<\/groupId>/.exec(dep[1] ?? '')?.[1];
    const artifact = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(dep[1] ?? '')?.[1];
    if (group && artifact) out.add(`${group}:${artifact}`);
  }
  return out;
}

function buildGradle(text: string): Set<string> {
  const out = new Set<string>();
  const configurations =
    'implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly|annotationProcessor|kapt|classpath|compile|testCompile';
  const re = new RegExp(`^\\s*(?:${configurations})\\s*\\(?\\s*["']([^"':]+:[^"':]+)(?::[^"']*)?["']`, 'gm');
  for (const m of text.matchAll(re)) if (m[1]) out.add(m[1]);
  return out;
}

function readerFor(path: string): Reader | null {
  const name = basename(path);
  if (name === 'package.json') return packageJson;
  if (/^requirements.*\.txt$/.test(name)) return requirementsTxt;
  if (name === 'pyproject.toml') return pyprojectToml;
  if (name === 'Cargo.toml') return cargoToml;
  if (name === 'go.mod') return goMod;
  if (name === 'pom.xml') return pomXml;
  if (name === 'build.gradle' || name === 'build.gradle.kts') return buildGradle;
  return null;
}

/** Names of the dependencies `after` declares that `before` did not (sorted); [] for other files. */
export function findNewDependencies(path: string, before: string | null, after: string | null): string[] {
  const read = readerFor(path);
  if (!read || after === null) return [];
  const old = before === null ? new Set<string>() : read(before);
  return [...read(after)].filter((name) => !old.has(name)).sort();
}
