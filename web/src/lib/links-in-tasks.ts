/** Links a task: at a laptop's CPU each costs 0.6–0.7 ms; in Lighthouse's trace 1.4–2.8 ms. */
const LINKS_PER_TASK = 4;

/**
 * Runs `load`, a lazy import, with the `<link>`s Vite's preload appends for it (one per file the
 * imported code needs, its stylesheets too) appended a few a task, in order, instead of all in
 * the task that asks (issue 57): each link starts a request, and the front queue's lists' 18 were
 * one long task at a phone's CPU, 25–50 ms in Lighthouse's trace. The import waits for the
 * stylesheets among them as before (Vite's preload waits for each one's `load`), so nothing is
 * drawn without its styles; only a call that appends links is affected (a later one appends none).
 */
export const linksInTasks = <T>(load: () => Promise<T>): Promise<T> => {
  const head = document.head;
  const append = head.appendChild;
  const own = Object.hasOwn(head, 'appendChild');
  const waiting: Node[] = [];
  // Vite's preload appends its links with `document.head.appendChild`, synchronously within the call.
  head.appendChild = <N extends Node>(node: N): N => {
    waiting.push(node);
    return node;
  };
  const appendSome = () => {
    for (const node of waiting.splice(0, LINKS_PER_TASK)) append.call(head, node);
    if (waiting.length > 0) setTimeout(appendSome, 0);
  };
  try {
    return load();
  } finally {
    if (own) head.appendChild = append;
    else delete (head as { appendChild?: unknown }).appendChild;
    appendSome();
  }
};
