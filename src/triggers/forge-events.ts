// What the triggers read of an event, whatever forge sent it: the repository, the issue or change
// request it is about, who asked and what they asked, the failing check, the delivery's id. A forge's
// adapter turns its webhooks into these (GitHub's: src/github/github-events.ts); nothing here knows
// a payload's field names. Who asked is a login: their role is the forge port's answer (`permission`).

export interface RepositoryRef {
  owner: string;
  name: string;
  /** Where fixloop clones from and pushes its branches to. */
  cloneUrl: string;
  defaultBranch: string;
}

/** An issue, or a change request (GitHub's pull request, GitLab's merge request), as an event names it. */
export interface Subject {
  number: number;
  title: string;
  body: string;
  isChangeRequest: boolean;
}

interface Delivered {
  /** The forge's id for the delivery: one run per delivery, whatever the forge redelivers. */
  deliveryId: string;
  repository: RepositoryRef;
}

/** A label put on an issue. */
export interface LabelEvent extends Delivered {
  subject: Subject;
  label: string;
  requester: string;
}

/**
 * An issue assigned to someone, or unassigned from them. `assignee` is whom it concerns; `requester`
 * is who assigned or unassigned.
 */
export interface AssignmentEvent extends Delivered {
  subject: Subject;
  assignee: string;
  /** False: the assignee was removed. */
  assigned: boolean;
  requester: string;
}

/** A comment on an issue or a change request: maybe a slash command. */
export interface CommentEvent extends Delivered {
  subject: Subject;
  comment: { id: number; text: string };
  requester: string;
}

/** A review that asks a change request for changes, with its text. */
export interface ReviewEvent extends Delivered {
  changeRequest: { number: number; headRef: string };
  text: string;
  requester: string;
}

/** A check (a CI pipeline, a workflow) that failed on the head of change requests. */
export interface FailingCheckEvent extends Delivered {
  headSha: string;
  /** The check's name, for the goal and the report. */
  checkName: string;
  changeRequests: number[];
  /** Who pushed the commit that failed, when the forge says. */
  requester: string | null;
  /** What failed, as the forge's adapter names it (opaque here): what `Forge.failingCommand` reads. */
  source?: string;
}
