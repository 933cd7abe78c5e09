import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * `GET /api/users/me/export` (product.md §14), saved as a JSON file: fetched through the API
 * client (it holds the token a plain link could not send), then handed to the browser as a download.
 */
export async function downloadMyData(): Promise<void> {
  const data = await apiRequest<unknown>('/api/users/me/export', {
    auth: true,
    errors: { messages: { other: 'accounts:data.failed' } },
  });
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `tunes-my-data-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function useDownloadMyData() {
  return useMutation({ mutationFn: downloadMyData });
}
