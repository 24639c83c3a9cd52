import cluster from "node:cluster";
import module from "node:module";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `Birrcheck needs Node.js 22.12 or newer; this is ${process.version}. ` +
      "`npm start` runs the Node.js 24 that `npm ci` installed.\n",
  );
  process.exit(1);
}
// Node keeps the compiled code of our modules and the libraries' on disk: later starts load faster.
module.enableCompileCache();

// `npm start` runs the cluster's primary, which forks workers running this same file.
if (cluster.isPrimary) {
  const { runPrimary } = await import("./serve/primary.js");
  await runPrimary();
} else {
  const { runWorker } = await import("./serve/worker.js");
  await runWorker();
}
