import axios from 'axios';

/**
 * True when `GET <url>/health` answers `{"status":"ok"}` within `timeoutMs` (ms); false on a
 * connection error, a time-out or any other answer.
 */
export async function checkHealth(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await axios.get<{ status?: unknown }>(`${url}/health`, {
      timeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      validateStatus: () => true,
    });
    return response.status === 200 && response.data?.status === 'ok';
  } catch (error) {
    return axios.isAxiosError(error) ? false : Promise.reject(error);
  }
}
