/**
 * Check ids of `astro-agent-api check` that fail on the demo and the examples until the product work
 * of issue #28 part 1 lands (the DOCS helper: last_updated). The tests let these fail and no other;
 * remove an id when its work is merged.
 */
export const PENDING_GRADERS_WORK = [
  'markdown-last-updated',
] as const;
