/** The sizes a process's diagram keeps to (apart from its schemas, so route declarations can name them cheaply). */

/** How many tasks one add-nodes call takes, and edges with them; the body may then be up to 1 MiB. */
export const DIAGRAM_LIMITS = {
  tasksPerCall: 1000,
  edgesPerCall: 2000,
  /** Edges one call of the edge operation adds (one transaction with the process). */
  edgesPerEdgeCall: 90,
  addNodesBodyBytes: 1024 * 1024,
  /**
   * Tasks one process holds, however added: its diagram and its BPMN export stay well inside one function's
   * answer (6 MB), and it publishes with its tasks (publish-service.ts).
   */
  tasksPerProcess: 1500,
  /**
   * Edges one process holds, however added: at both limits, with the longest names, its BPMN export (the
   * larger answer) takes about 4.3 MB of the 6 MB, indented (process-diagram.test.ts measures it), so even
   * a call racing another past the limit by its most edges (edgesPerCall) still answers whole.
   */
  edgesPerProcess: 3000,
} as const;
