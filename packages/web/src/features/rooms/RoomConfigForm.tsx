import { Alert, Autocomplete, Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../lib/documents/documents.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { errorKeyOf, saveRoom } from './api/roomConfigActions.ts';
import { problemsOf, ROOM_STATUSES, roomFieldsOf, validateRoom, type FieldProblems, type FormField, type RoomFormValues } from './roomConfigForm.ts';
import { assignableDevices, type Device, type Room } from './roomConfigRows.ts';
import { alertSettingsValuesOf } from './roomAlertSettingsForm.ts';
import { RoomAlertSettingsFields } from './RoomAlertSettingsFields.tsx';

export interface DomainChoice {
  id: string;
  name: string;
  rootDomainId: string | null;
}

interface RoomFormProps {
  /** null: a new room. */
  room: Room | null;
  rooms: readonly Room[];
  devices: readonly Device[];
  /** Domains a new room may be created in; one or none hides the choice. */
  domains: readonly DomainChoice[];
  defaultDomainId: string;
  defaultSortOrder: number;
  floors: readonly string[];
  units: readonly string[];
  /** Administrators assign devices; general staff see the room's device only. */
  canAssign: boolean;
  onClose(): void;
}

function initialValues(room: Room | null, defaultDomainId: string, defaultSortOrder: number): RoomFormValues {
  return {
    domainId: room?.domainId ?? defaultDomainId,
    name: room?.name ?? '',
    floor: room?.floor ?? '',
    unit: room?.unit ?? '',
    sortOrder: room === null ? defaultSortOrder : (room.sortOrder ?? ''),
    residentName: room?.residentName ?? '',
    residentNote: room?.residentNote ?? '',
    status: room?.status ?? 'active',
    deviceSerial: room?.deviceSerial ?? '',
    alertSettings: alertSettingsValuesOf(room?.alertSettings),
  };
}

/** The create and edit dialog: the fields, checked with the server's schema before anything is sent. */
export function RoomConfigForm({ room, rooms, devices, domains, defaultDomainId, defaultSortOrder, floors, units, canAssign, onClose }: RoomFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RoomFormValues>(() => initialValues(room, defaultDomainId, defaultSortOrder));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const creating = room === null;

  const set = <K extends keyof RoomFormValues>(field: K, value: RoomFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };

  const problem = (field: FormField): string | undefined => {
    const found = problems[field];
    return found === undefined ? undefined : t(`roomConfig.validation.${found.rule}`, { field: t(`roomConfig.fields.${field}`), ...found.params });
  };

  const choices = assignableDevices(devices, rooms, values.domainId, room?.documentReferenceId ?? null);
  const deviceOptions = [
    { value: '', label: t('roomConfig.form.noDevice') },
    ...choices.map((device) => ({
      value: device.documentReferenceId,
      label: t('roomConfig.form.deviceOption', { serial: device.documentReferenceId, type: device.deviceTypeId }),
    })),
  ];
  // A device assigned elsewhere meanwhile is still shown, so the form never drops the value silently.
  if (values.deviceSerial !== '' && !deviceOptions.some((option) => option.value === values.deviceSerial))
    deviceOptions.push({ value: values.deviceSerial, label: values.deviceSerial });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const domain = domains.find((choice) => choice.id === values.domainId);
    const fields = roomFieldsOf(values, room?.rootDomainId ?? domain?.rootDomainId ?? null);
    const checked = validateRoom(fields);
    if (!checked.ok) {
      setProblems(checked.problems);
      if (checked.problems.form !== undefined) setFailure(t('roomConfig.errors.invalidInput'));
      return;
    }
    setSaving(true);
    try {
      await saveRoom(documents, { roomId: room?.documentReferenceId ?? null, fields: checked.fields, changeDevice: canAssign });
      notify({ color: 'green', message: t(creating ? 'roomConfig.notices.created' : 'roomConfig.notices.saved', { name: fields.name }) });
      onClose();
    } catch (error) {
      if (error instanceof DocumentError && error.issues.length > 0) setProblems(problemsOf(error.issues));
      // Said in the form, which stays open: a toast as well would cover the form's own buttons.
      setFailure(t(errorKeyOf(error)));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={creating ? t('roomConfig.form.createTitle') : t('roomConfig.form.editTitle', { name: room.name })}
      size="lg"
      closeOnClickOutside={!saving}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="room-config-form">
        <Stack gap="sm">
          {failure !== null ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert" title={t('roomConfig.notices.saveFailed')}>
              {failure}
            </Alert>
          ) : null}
          {creating && domains.length > 1 ? (
            <Select
              label={t('roomConfig.fields.domainId')}
              data={domains.map((domain) => ({ value: domain.id, label: domain.name }))}
              value={values.domainId}
              onChange={(value) => {
                set('domainId', value ?? '');
                // Devices belong to a domain: another domain's room cannot keep this one's device.
                set('deviceSerial', '');
              }}
              error={problem('domainId')}
              allowDeselect={false}
              required
            />
          ) : null}
          <TextInput
            label={t('roomConfig.fields.name')}
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={problem('name')}
            required
            data-autofocus
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Autocomplete
              label={t('roomConfig.fields.floor')}
              data={[...floors]}
              value={values.floor}
              onChange={(value) => set('floor', value)}
              error={problem('floor')}
            />
            <Autocomplete
              label={t('roomConfig.fields.unit')}
              data={[...units]}
              value={values.unit}
              onChange={(value) => set('unit', value)}
              error={problem('unit')}
            />
            <NumberInput
              label={t('roomConfig.fields.sortOrder')}
              value={values.sortOrder}
              onChange={(value) => set('sortOrder', value)}
              error={problem('sortOrder')}
              allowDecimal={false}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('roomConfig.fields.residentName')}
              value={values.residentName}
              onChange={(event) => set('residentName', event.currentTarget.value)}
              error={problem('residentName')}
            />
            <Select
              label={t('roomConfig.fields.status')}
              data={ROOM_STATUSES.map((status) => ({ value: status, label: t(`roomConfig.statuses.${status}`) }))}
              value={values.status}
              onChange={(value) => set('status', value ?? '')}
              error={problem('status')}
              allowDeselect={false}
            />
          </SimpleGrid>
          <Textarea
            label={t('roomConfig.fields.residentNote')}
            value={values.residentNote}
            onChange={(event) => set('residentNote', event.currentTarget.value)}
            error={problem('residentNote')}
            autosize
            minRows={2}
            maxRows={5}
          />
          {canAssign ? (
            <Select
              label={t('roomConfig.fields.deviceSerial')}
              description={t('roomConfig.form.deviceHint')}
              data={deviceOptions}
              value={values.deviceSerial}
              onChange={(value) => set('deviceSerial', value ?? '')}
              error={problem('deviceSerial')}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('roomConfig.form.noFreeDevice')}
            />
          ) : (
            <TextInput
              label={t('roomConfig.fields.deviceSerial')}
              description={t('roomConfig.form.deviceByAdmin')}
              value={values.deviceSerial === '' ? t('roomConfig.form.noDevice') : values.deviceSerial}
              readOnly
            />
          )}
          {values.alertSettings !== undefined ? (
            <RoomAlertSettingsFields
              domainId={values.domainId}
              values={values.alertSettings}
              error={problem('alertSettings')}
              onChange={(next) => set('alertSettings', next)}
            />
          ) : null}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('roomConfig.actions.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {creating ? t('roomConfig.actions.create') : t('roomConfig.actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
