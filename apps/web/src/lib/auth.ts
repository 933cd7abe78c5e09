import { useQuery } from '@tanstack/react-query';
import type { Profile, SubscriptionView } from '@tunes/shared/profile';
import { useSyncExternalStore } from 'react';
import { apiRequest } from './api-client';
import { queryClient } from './query-client';
import {
  type AuthData,
  clearSession,
  GRANT_URL_KEY,
  readSession,
  SHARED_CODE_KEY,
  subscribeToSession,
} from './session';

/** The signed-in user's session, or null for a visitor; re-renders when it changes. */
export function useSession(): AuthData | null {
  return useSyncExternalStore(subscribeToSession, readSession, () => null);
}

export const profileQueryKey = (sub: string) => ['profile', sub] as const;

export function getProfile(sub: string): Promise<Profile> {
  return apiRequest<Profile>(`/api/users/${encodeURIComponent(sub)}/profile`, { auth: true });
}

/** The signed-in user's profile (product.md §3); idle for visitors. */
export function useProfile() {
  const session = useSession();
  return useQuery({
    queryKey: profileQueryKey(session?.sub ?? ''),
    queryFn: () => getProfile(session?.sub ?? ''),
    enabled: Boolean(session),
  });
}

/** The first subscription of the profile: the one the site shows (product.md §3). */
export function currentSubscription(profile: Profile | undefined): SubscriptionView | undefined {
  return profile?.Subscriptions[0];
}

/** Subscribed = the profile has a first subscription (product.md §4): hides the Premium link. */
export function useIsSubscribed(): boolean {
  const { data } = useProfile();
  return Boolean(currentSubscription(data));
}

/** Forgets the signed-in state: the cookie, the stored invite code and grant URL, and cached data. */
export function endSignedInState(): void {
  clearSession();
  try {
    sessionStorage.removeItem(SHARED_CODE_KEY);
    localStorage.removeItem(GRANT_URL_KEY);
  } catch {
    // Storage may be unavailable; the cookie is what signs the user out.
  }
  queryClient.clear();
}

/** How long logout waits for the server to end the sign-in before it signs out here anyway. */
const SIGN_OUT_WAIT_MS = 3000;

/**
 * Logout (product.md §2): the server ends this sign-in first (its refresh token stops working,
 * the device leaves the account's list), then the cookie, the stored invite code and grant URL
 * are cleared and the page reloads. A server that cannot be reached does not keep anyone signed
 * in here: after SIGN_OUT_WAIT_MS, or on any failure, the local sign-out goes ahead.
 */
export async function logout(): Promise<void> {
  if (readSession()) {
    const ended = apiRequest<null>('/api/users/me/sessions/current', { method: 'DELETE', auth: true });
    const waited = new Promise<void>((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS));
    await Promise.race([ended.catch(() => undefined), waited]);
  }
  endSignedInState();
  location.reload();
}
