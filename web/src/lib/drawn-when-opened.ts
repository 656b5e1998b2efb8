import { useEffect, useState } from 'react';

/**
 * A dialog drawn from its first opening on, not before (issue 57, h57v). Mantine's Modal, drawn
 * closed, still sets state in the commit that mounts it (its id and its portal's node, in layout
 * effects: the page's tree drawn again inside that commit's task) and runs effects after it: on
 * the front queue three closed dialogs (Scan, End Session, an emergency's dismiss) did so in the
 * task that paints the keypad. Here nothing is drawn until the dialog is first asked to open; it
 * is then drawn closed once and opened in the next render, so it opens with its transition, as
 * before, and stays drawn (closing keeps its transition too).
 *
 * `draw`: whether to draw the dialog at all; `opened`: what to pass it as opened.
 */
export const useDrawnWhenOpened = (opened: boolean) => {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (opened) setDrawn(true);
  }, [opened]);
  return { draw: opened || drawn, opened: opened && drawn };
};
