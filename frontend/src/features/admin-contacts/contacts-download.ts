/** The file name the API gives (`contacts-YYYY-MM-DD.csv`), or a dated default. */
export function downloadNameOf(response: Response): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1]
    ? decodeURIComponent(match[1])
    : `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** Hands the answer to the browser as a downloaded file. */
export async function saveDownload(response: Response): Promise<void> {
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = downloadNameOf(response);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has been handled: the download has its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
