/** The releases kept besides the one served, by default. */
export const DEFAULT_KEPT_RELEASES = 2;

/** What `astro-agent-api publish` takes, printed with a usage mistake. */
export const PUBLISH_USAGE = `Usage: astro-agent-api publish [--outDir dist] [--keep ${DEFAULT_KEPT_RELEASES}] [-- <astro build options>]

Builds the site (astro build) into a new release folder beside the output folder (.dist-releases/),
then, once the build is complete, points the output folder, a link, at it in one atomic rename.
startServer (npm start) follows the switch: every page, twin, search and Pagefind file is answered
from the previous build until then, from the new one after. Releases older than the kept ones are
removed. A failed build changes nothing.

  --outDir  the output folder your server serves (Astro's outDir; default dist)
  --keep    previous releases kept for a rollback, at least 1 (default ${DEFAULT_KEPT_RELEASES})`;

/** What `astro-agent-api rollback` takes, printed with a usage mistake. */
export const ROLLBACK_USAGE = `Usage: astro-agent-api rollback [--outDir dist] [--to <release>]

Points the output folder back at the release published before the one it serves (or at --to), in
one atomic rename, and lists the releases kept.

  --outDir  the output folder your server serves (default dist)
  --to      the release to serve, as listed (default: the one before the current one)`;
