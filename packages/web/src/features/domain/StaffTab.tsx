import { Alert, Badge, Button, Group, Loader, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { Claims } from '@nemuri/shared/documents/access';
import { SCHEMAS } from '@nemuri/shared/documents/collections';
import { INVITABLE_LEVELS } from '@nemuri/shared/registration';
import { roleOfLevel } from '@nemuri/shared/roles';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { documents } from '../../lib/documents/documents.ts';
import { notify } from '../../lib/notify.ts';
import {
  errorKeyOf,
  invitationStateOf,
  inviteStaff,
  mayWriteStaff,
  resendInvitation,
  resetSecondFactor,
  revokeInvitation,
  saveStaffMember,
  type StaffMember,
} from './api/domainConfigApi.ts';
import { problemOf } from './domainConfigForm.ts';
import { useInvitations, useStaff } from './api/domainQueries.ts';

interface StaffTabProps {
  domainId: string;
  claims: Claims;
}

const STATE_COLORS = { valid: 'teal', used: 'gray', expired: 'orange', revoked: 'red' } as const;
/** Above any facility's staff; the engine's own ceiling for one query. */
const STAFF_LIMIT = 500;

/**
 * The domain's staff and invitations. General staff (2) never reach this screen; an administrator
 * (3) sees everyone but edits only members below level 3, and levels 4 and above edit everyone in
 * scope (PRODUCT.md section 1). The server's level guard decides; the controls only follow it.
 */
export function StaffTab({ domainId, claims }: StaffTabProps) {
  const { t } = useTranslation();
  const staff = useStaff(domainId, STAFF_LIMIT);
  const invitations = useInvitations(domainId, STAFF_LIMIT);
  const [busy, setBusy] = useState<string | null>(null);
  const [rowProblems, setRowProblems] = useState<Record<string, string>>({});
  const [resetting, setResetting] = useState<StaffMember | null>(null);

  const members = useMemo(
    () => [...staff.data].sort((a, b) => b.accessLevel - a.accessLevel || a.displayName.localeCompare(b.displayName, 'ja')),
    [staff.data],
  );
  const pending = useMemo(() => [...invitations.data].sort((a, b) => b.expiresAt.localeCompare(a.expiresAt)), [invitations.data]);
  const roleName = (level: number) => t(`roles.${roleOfLevel(level)}`);
  const levelOptions = (current: number) =>
    [...new Set<number>([...INVITABLE_LEVELS, current])]
      .sort((a, b) => a - b)
      .map((level) => ({ value: String(level), label: `${roleName(level)}（${level}）` }));

  const run = async (key: string, action: () => Promise<void>, done: string) => {
    setBusy(key);
    try {
      await action();
      notify({ color: 'teal', message: done });
    } catch (error) {
      notify({ color: 'red', title: t('domainConfig.notices.actionFailed'), message: t(errorKeyOf(error)) });
    } finally {
      setBusy(null);
    }
  };

  const changeLevel = (member: StaffMember, value: string | null) => {
    const level = Number(value);
    if (value === null || level === member.accessLevel) return;
    const uid = member.documentReferenceId;
    if (!mayWriteStaff(claims, member, level)) {
      setRowProblems((current) => ({ ...current, [uid]: t('domainConfig.staff.levelNotAllowed', { role: roleName(level) }) }));
      return;
    }
    setRowProblems((current) => ({ ...current, [uid]: '' }));
    void run(
      `level:${uid}`,
      () => saveStaffMember(documents, domainId, uid, { accessLevel: level }),
      t('domainConfig.notices.levelChanged', { name: member.displayName, role: roleName(level) }),
    );
  };

  const toggleDisabled = (member: StaffMember) => {
    const disabled = member.disabled !== true;
    void run(
      `disabled:${member.documentReferenceId}`,
      () => saveStaffMember(documents, domainId, member.documentReferenceId, { disabled }),
      t(disabled ? 'domainConfig.notices.disabled' : 'domainConfig.notices.enabled', { name: member.displayName }),
    );
  };

  const confirmReset = () => {
    const member = resetting;
    if (member === null) return;
    setResetting(null);
    void run(
      `reset:${member.documentReferenceId}`,
      () => resetSecondFactor(domainId, member.documentReferenceId),
      t('domainConfig.notices.secondFactorReset', { name: member.displayName }),
    );
  };

  return (
    <Stack gap="lg">
      <InviteForm domainId={domainId} claims={claims} roleName={roleName} />

      <Stack gap="xs">
        <Title order={4}>{t('domainConfig.staff.membersTitle')}</Title>
        {staff.loading ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">{t('domainConfig.staff.loading')}</Text>
          </Group>
        ) : staff.error !== null ? (
          <Alert color="red">{t('domainConfig.staff.loadFailed', { reason: t(errorKeyOf(staff.error)) })}</Alert>
        ) : members.length === 0 ? (
          <Text c="dimmed">{t('domainConfig.staff.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table striped aria-label={t('domainConfig.staff.membersTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('domainConfig.staff.columns.name')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.email')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.level')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.status')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.map((member) => {
                  const uid = member.documentReferenceId;
                  const editable = mayWriteStaff(claims, member);
                  const self = uid === claims.uid;
                  return (
                    <Table.Tr key={uid} data-staff-email={member.email}>
                      <Table.Td>{member.displayName}</Table.Td>
                      <Table.Td>{member.email}</Table.Td>
                      <Table.Td>
                        {editable && !self ? (
                          <Select
                            aria-label={t('domainConfig.staff.levelOf', { name: member.displayName })}
                            data={levelOptions(member.accessLevel)}
                            value={String(member.accessLevel)}
                            onChange={(value) => changeLevel(member, value)}
                            allowDeselect={false}
                            disabled={busy !== null}
                            error={rowProblems[uid] === '' ? undefined : rowProblems[uid]}
                            w={220}
                          />
                        ) : (
                          <Text size="sm">{`${roleName(member.accessLevel)}（${member.accessLevel}）`}</Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={member.disabled === true ? 'gray' : 'teal'} variant="light">
                          {t(member.disabled === true ? 'domainConfig.staff.statusDisabled' : 'domainConfig.staff.statusActive')}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {editable && !self ? (
                          <Group gap="xs" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              color={member.disabled === true ? 'teal' : 'gray'}
                              loading={busy === `disabled:${uid}`}
                              onClick={() => toggleDisabled(member)}
                            >
                              {t(member.disabled === true ? 'domainConfig.actions.enable' : 'domainConfig.actions.disable')}
                            </Button>
                            <Button size="xs" variant="light" color="orange" loading={busy === `reset:${uid}`} onClick={() => setResetting(member)}>
                              {t('domainConfig.actions.resetSecondFactor')}
                            </Button>
                          </Group>
                        ) : (
                          <Text size="xs" c="dimmed">
                            {t(self ? 'domainConfig.staff.self' : 'domainConfig.staff.readOnly')}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Stack gap="xs">
        <Title order={4}>{t('domainConfig.staff.invitationsTitle')}</Title>
        {invitations.loading ? (
          <Loader size="sm" />
        ) : invitations.error !== null ? (
          <Alert color="red">{t('domainConfig.staff.loadFailed', { reason: t(errorKeyOf(invitations.error)) })}</Alert>
        ) : pending.length === 0 ? (
          <Text c="dimmed">{t('domainConfig.staff.noInvitations')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label={t('domainConfig.staff.invitationsTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('domainConfig.staff.columns.email')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.level')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.link')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.expiresAt')}</Table.Th>
                  <Table.Th>{t('domainConfig.staff.columns.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pending.map((invitation) => {
                  const id = invitation.documentReferenceId;
                  const state = invitationStateOf(invitation);
                  const editable = mayWriteStaff(claims, invitation);
                  return (
                    <Table.Tr key={id} data-invitation-email={invitation.email}>
                      <Table.Td>{invitation.email}</Table.Td>
                      <Table.Td>{roleName(invitation.accessLevel)}</Table.Td>
                      <Table.Td>
                        <Badge color={STATE_COLORS[state]} variant="light">
                          {t(`domainConfig.staff.invitationStates.${state}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{formatDateTime(invitation.expiresAt)}</Table.Td>
                      <Table.Td>
                        {editable && state !== 'used' ? (
                          <Group gap="xs" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              loading={busy === `resend:${id}`}
                              onClick={() =>
                                void run(
                                  `resend:${id}`,
                                  () => resendInvitation(documents, invitation),
                                  t('domainConfig.notices.invitationResent', { email: invitation.email }),
                                )
                              }
                            >
                              {t('domainConfig.actions.resend')}
                            </Button>
                            {state === 'valid' ? (
                              <Button
                                size="xs"
                                variant="light"
                                color="red"
                                loading={busy === `revoke:${id}`}
                                onClick={() =>
                                  void run(
                                    `revoke:${id}`,
                                    () => revokeInvitation(documents, id),
                                    t('domainConfig.notices.invitationRevoked', { email: invitation.email }),
                                  )
                                }
                              >
                                {t('domainConfig.actions.revoke')}
                              </Button>
                            ) : null}
                          </Group>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Modal opened={resetting !== null} onClose={() => setResetting(null)} title={t('domainConfig.staff.resetTitle')}>
        <Stack>
          <Text size="sm">{t('domainConfig.staff.resetConfirm', { name: resetting?.displayName ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setResetting(null)}>
              {t('domainConfig.actions.cancel')}
            </Button>
            <Button color="orange" onClick={confirmReset}>
              {t('domainConfig.actions.resetSecondFactor')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

const INVITATION_EMAIL = SCHEMAS.invitations.pick({ email: true });

interface InviteFormProps {
  domainId: string;
  claims: Claims;
  roleName(level: number): string;
}

/** An e-mail address and a level; the invitee gets a link to /registerUser/:domainId. */
function InviteForm({ domainId, claims, roleName }: InviteFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<string>(String(INVITABLE_LEVELS[1]));
  const [problems, setProblems] = useState<{ email?: string; level?: string }>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    const accessLevel = Number(level);
    const found: { email?: string; level?: string } = {};
    const checked = INVITATION_EMAIL.safeParse({ email: address });
    if (!checked.success) {
      const problem = problemOf(checked.error.issues[0] ?? { code: 'custom', message: '', path: [] });
      found.email = t(`domainConfig.validation.${problem.rule}`, { field: t('domainConfig.fields.email'), ...problem.params });
    }
    if (!mayWriteStaff(claims, null, accessLevel)) found.level = t('domainConfig.staff.levelNotAllowed', { role: roleName(accessLevel) });
    setProblems(found);
    if (found.email !== undefined || found.level !== undefined) return;
    setSending(true);
    try {
      await inviteStaff(domainId, address, accessLevel);
      notify({ color: 'teal', message: t('domainConfig.notices.invited', { email: address }) });
      setEmail('');
    } catch (error) {
      notify({ color: 'red', title: t('domainConfig.notices.inviteFailed'), message: t(errorKeyOf(error)) });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('domainConfig.staff.inviteTitle')}>
      <Stack gap="xs">
        <Title order={4}>{t('domainConfig.staff.inviteTitle')}</Title>
        <Text size="sm" c="dimmed">
          {t('domainConfig.staff.inviteHint')}
        </Text>
        <Group align="flex-start">
          <TextInput
            label={t('domainConfig.fields.email')}
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setProblems((current) => ({ ...current, email: undefined }));
            }}
            error={problems.email}
            w={300}
          />
          <Select
            label={t('domainConfig.fields.accessLevel')}
            data={INVITABLE_LEVELS.map((value) => ({ value: String(value), label: `${roleName(value)}（${value}）` }))}
            value={level}
            onChange={(value) => {
              setLevel(value ?? String(INVITABLE_LEVELS[1]));
              setProblems((current) => ({ ...current, level: undefined }));
            }}
            allowDeselect={false}
            error={problems.level}
            w={240}
          />
          <Button type="submit" loading={sending} mt={25}>
            {t('domainConfig.actions.invite')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
