// FixRequest (docs/design.md §2): what every trigger (CLI, label, assignment, slash command, failing check) becomes.
import { z } from 'zod';
import { repoConfigSchema } from './repo-config.ts';

export const triggerKinds = ['cli', 'label', 'assign', 'command', 'check', 'review'] as const;

export const fixRequestSchema = z.object({
  runId: z.string().regex(/^[a-z0-9-]{6,64}$/),
  repository: z.object({
    /** A local path or a git URL. Never carries credentials: those travel as an HTTP header (CloneAuth). */
    cloneUrl: z.string().min(1),
    /** Branch or ref to check out; null = the remote's default branch. */
    ref: z.string().min(1).nullable(),
    /** Exact commit to work on, when known (e.g. a pull request's head). */
    sha: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/)
      .nullable(),
    /** Base of the change being fixed (e.g. a pull request's base): its diff is a localization hint. */
    baseRef: z.string().min(1).nullable().default(null),
    /**
     * A local repository's working tree as it is (uncommitted changes to tracked files, untracked
     * files git does not ignore) is where the run starts, as a commit of fixloop's mirror (docs/design.md
     * §1.3): what `fixloop run` and the library do unless asked for HEAD (`--head`). Absent or false:
     * the repository's HEAD (a URL, a bare repository, a request stored before this existed).
     */
    workingTree: z.boolean().optional(),
  }),
  trigger: z.object({
    kind: z.enum(triggerKinds),
    number: z.number().int().positive().nullable(),
    deliveryId: z.string().nullable(),
    actor: z.string().nullable(),
  }),
  goal: z.string(),
  /**
   * The goal describes a bug on its own (an issue, a CLI --goal): when every test passes, an engine
   * that can write tests may first write one that fails (red → green). Not for pull request checks.
   */
  writeTestWhenGreen: z.boolean().optional(),
  instructions: z.string().optional(),
  /**
   * A failing check's failed step (`npm run lint`), from the forge's CI definition: once the clone
   * shows the repository's scripts, a command that starts no test runner becomes the run's check
   * (`checks`), the tests guarding; one that does and no test command is configured, its test command.
   */
  failedCommand: z.string().min(1).optional(),
  /** Lines a failing pull request changed: the strongest localization hint. */
  hints: z.array(z.object({ file: z.string(), lines: z.array(z.number().int().positive()) })).default([]),
  config: repoConfigSchema,
});

export type FixRequest = z.output<typeof fixRequestSchema>;
