/** Saves text (or bytes: a zip) as a file in the browser (a template, an export). */
export const downloadText = (
  filename: string,
  text: string | Uint8Array,
  type = 'text/csv;charset=utf-8',
) => {
  const url = URL.createObjectURL(new Blob([text as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
