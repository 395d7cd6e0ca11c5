import { Avatar, Badge, Button, FileButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { formatPhoneNumber, normalizePhoneNumber, PHOTO_MAX_PIXELS, PHOTO_TYPES, type AccountProfile } from '@nemuri/shared/accountProfile';
import type { SignedInUser } from '@nemuri/shared/user';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { reloadUser, updateDisplayName } from '../../lib/authClient.ts';
import { notify } from '../../lib/notify.ts';
import { fetchProfile, removePhoto, savePhoneNumber, savePhoto } from './api/accountApi.ts';
import { accountErrorMessage } from './accountErrorMessage.ts';
import { photoDataUrl } from './photoImage.ts';
import { FeedbackAlert, Section, type Feedback } from './Section.tsx';

/** Name, phone number and photo. The name lives in Better Auth's user; phone and photo on our server. */
export function ProfileSection({ user }: { user: SignedInUser }) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.displayName ?? '');
  // null until the stored number has loaded: the field stays disabled so a number typed early is not overwritten.
  const [phone, setPhone] = useState<string | null>(null);
  const [profile, setProfile] = useState<AccountProfile | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let live = true;
    fetchProfile().then(
      (loaded) => {
        if (!live) return;
        setProfile(loaded);
        setPhone((typed) => typed ?? (loaded.phoneNumber === null ? '' : formatPhoneNumber(loaded.phoneNumber)));
      },
      (caught: unknown) => {
        if (!live) return;
        setLoadFailed(true);
        setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
      },
    );
    return () => {
      live = false;
    };
  }, [t]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setFeedback(null);
    if (name.trim() === '') {
      setFeedback({ ok: false, message: t('auth.validation.name') });
      return;
    }
    // Without the stored profile only the name can be saved.
    const typed = profile === null ? '' : (phone ?? '').trim();
    const phoneDigits = typed === '' ? null : normalizePhoneNumber(typed);
    if (typed !== '' && phoneDigits === null) {
      setPhoneError(t('accountInfo.errors.invalid-phone'));
      return;
    }
    setPhoneError(null);
    setBusy(true);
    try {
      if (name.trim() !== (user.displayName ?? '')) await updateDisplayName(name.trim());
      if (profile !== null && phoneDigits !== profile.phoneNumber) {
        const saved = await savePhoneNumber(phoneDigits);
        setProfile(saved);
        setPhone(saved.phoneNumber === null ? '' : formatPhoneNumber(saved.phoneNumber));
      }
      setFeedback({ ok: true, message: t('account.saved') });
      notify({ color: 'teal', message: t('accountInfo.profileSaved') });
    } catch (caught) {
      setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('account.profile')}>
      <PhotoField name={name} photoURL={profile?.photoURL ?? user.photoURL} onChange={setProfile} />
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <FeedbackAlert feedback={feedback} />
          <TextInput label={t('account.name')} autoComplete="name" value={name} maxLength={100} onChange={(event) => setName(event.currentTarget.value)} />
          <TextInput
            label={t('accountInfo.phone')}
            description={t('accountInfo.phoneHint')}
            placeholder="090-1234-5678"
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            value={phone ?? ''}
            disabled={phone === null}
            error={phoneError}
            onChange={(event) => setPhone(event.currentTarget.value)}
          />
          <Group gap="xs">
            <Text size="sm">{t('account.email')}:</Text>
            <Text size="sm" fw={600}>
              {user.email}
            </Text>
            <Badge size="sm" variant="light" color={user.isEmailVerified ? 'teal' : 'gray'}>
              {t(user.isEmailVerified ? 'account.emailVerified' : 'account.emailUnverified')}
            </Badge>
          </Group>
          <Group>
            <Button type="submit" loading={busy} disabled={profile === null && !loadFailed}>
              {t('account.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function PhotoField({ name, photoURL, onChange }: { name: string; photoURL: string | null; onChange: (profile: AccountProfile) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const act = async (kind: 'upload' | 'remove', action: () => Promise<AccountProfile>, done: string) => {
    setBusy(kind);
    setFeedback(null);
    try {
      onChange(await action());
      // The header's avatar reads the signed-in user's photoURL.
      await reloadUser();
      notify({ color: 'teal', message: done });
    } catch (caught) {
      setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="xs">
      <Group gap="md" align="center">
        <Avatar src={photoURL} alt={t('accountInfo.photoAlt')} name={name} size={72} radius="xl" data-testid="account-photo" />
        <Stack gap={4}>
          <Group gap="xs">
            <FileButton
              accept={PHOTO_TYPES.join(',')}
              onChange={(file) => file && void act('upload', async () => savePhoto(await photoDataUrl(file)), t('accountInfo.photoSaved'))}
            >
              {(props) => (
                <Button {...props} size="xs" variant="default" loading={busy === 'upload'}>
                  {t('accountInfo.photoChoose')}
                </Button>
              )}
            </FileButton>
            {photoURL ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={busy === 'remove'}
                onClick={() => void act('remove', removePhoto, t('accountInfo.photoRemoved'))}
              >
                {t('accountInfo.photoRemove')}
              </Button>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {t('accountInfo.photoHint', { pixels: PHOTO_MAX_PIXELS })}
          </Text>
        </Stack>
      </Group>
      <FeedbackAlert feedback={feedback} />
    </Stack>
  );
}
