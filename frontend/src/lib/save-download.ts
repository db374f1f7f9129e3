/** The file name the API gives, or `<fallback>-YYYY-MM-DD.csv`. */
export function downloadNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1]
    ? decodeURIComponent(match[1])
    : `${fallback}-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** Hands the answer to the browser as a downloaded file. */
export async function saveDownload(response: Response, fallback: string): Promise<void> {
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = downloadNameOf(response, fallback);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has been handled: the download has its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
