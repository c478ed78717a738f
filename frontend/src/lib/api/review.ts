import { service } from '../wails';
import type { review } from '../wailsjs/go/models';

/** A pane branch's Review (review.Review): its changed files and open comments. */
export type Review = review.Review;
export type ChangedFile = review.File;
export type ReviewComment = review.Comment;
export type FinishPlan = review.FinishPlan;
export type FinishResult = review.FinishResult;
export type MergeMode = 'merge' | 'squash' | 'rebase';

const svc = service('review', 'Service');

export const reviewApi = {
  review: (pane: string) => svc('Review', pane),
  addComment: (pane: string, c: { path: string; line: number; side: 'new' | 'old'; text: string }) =>
    svc('AddComment', pane, { ...c, id: 0, at: 0, sentAt: 0 }),
  resolve: (pane: string, id: number) => svc('Resolve', pane, id),
  /** send gives the pane's agent every open comment as one message, or queues it while the agent works. */
  send: (pane: string) => svc('Send', pane),
  finishPlan: (pane: string) => svc('FinishPlan', pane),
  finish: (pane: string, mode: MergeMode, message: string) => svc('Finish', pane, { mode, message }),
  archive: (pane: string, discard: boolean, deleteBranch: boolean) => svc('Archive', pane, { discard, deleteBranch }),
};
