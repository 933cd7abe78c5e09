import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './video-modal.module.css';

/** The music-video player in a modal dialog: focus stays inside, Escape or the button closes it. */
export default function VideoModal({ embedUrl, onClose }: { embedUrl: string; onClose(): void }) {
  const { t } = useTranslation('content');
  const dialog = useRef<HTMLDialogElement>(null);
  // Leave the modal state first, so focus can return to the button that opened it.
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; keyboard users close with Escape (cancel) or the button.
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-label={t('video.dialog')}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <button type="button" className={styles.close} onClick={close} aria-label={t('video.close')}>
        <span aria-hidden="true">×</span>
      </button>
      <div className={styles.frame}>
        <iframe
          src={`${embedUrl}${embedUrl.includes('?') ? '&' : '?'}autoplay=1`}
          title={t('video.title')}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    </dialog>
  );
}
