// Guard run before build, start, dev and test: the project runs on the Node pinned through the
// `node` npm package. If npm skipped that package's install script, npm would quietly fall back to
// the machine's Node, and Astro would fail later with an obscure error.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `This project needs Node 22.12 or newer, but npm is running Node ${process.versions.node}.\n` +
      'The pinned Node comes from the "node" devDependency, whose install script must run:\n' +
      'check that package.json "allowScripts" names "node", then run `npm install` again.',
  );
  process.exit(1);
}
