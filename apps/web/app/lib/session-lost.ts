type SessionLostListener = () => void;
const sessionLostListeners = new Set<SessionLostListener>();

/**
 * Spec §4: a 403 authentication_required answer to any call but the user call means the session is
 * gone and the member is logged out. The member state subscribes here; returns the unsubscribe.
 */
export function onSessionLost(listener: SessionLostListener): () => void {
  sessionLostListeners.add(listener);
  return () => {
    sessionLostListeners.delete(listener);
  };
}

export function reportSessionLost(): void {
  for (const listener of [...sessionLostListeners]) listener();
}
