import { Checkbox, Combobox, Dropdown, Field, Input, Option } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveMenu, type MenuNode } from '../api/settings';
import { useTranslateTitle } from '@/i18n';
import { notify } from '@/utils/notify';
import { MENU_FLAGS, menuFormOf, menuNodeOf, parentOptions, validateMenu, type Errors, type MenuForm } from '../model/logic';
import { FormDialog, isConflict, useSettingStyles } from '@/components/forms/ui';

const TOP = '__top__';

/** Create / edit one node of the route tree (path, name, component, redirect, meta). */
export function MenuDialog({
  open,
  tree,
  node,
  parentName,
  components,
  version,
  onClose,
}: {
  open: boolean;
  tree: MenuNode[];
  node: MenuNode | null;
  parentName: string;
  components: string[];
  /** The tree's version, sent with the edit. */
  version: number;
  onClose: (saved: boolean, reload?: boolean, keepOpen?: boolean) => void;
}) {
  const { t } = useTranslation();
  const tt = useTranslateTitle();
  const styles = useSettingStyles();
  const [form, setForm] = useState<MenuForm>(() => menuFormOf(null, ''));
  const [errors, setErrors] = useState<Errors<keyof MenuForm>>({});
  const [busy, setBusy] = useState(false);
  const [componentQuery, setComponentQuery] = useState('');
  const parents = useMemo(() => parentOptions(tree, (n) => n.name, (n) => tt(n.meta?.title) || n.name, node?.name), [tree, node, tt]);
  useEffect(() => {
    if (!open) return;
    const f = menuFormOf(node, parentName);
    setForm(f);
    setComponentQuery(f.component);
    setErrors({});
  }, [open, node, parentName]);

  const set = <K extends keyof MenuForm>(k: K, v: MenuForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = async () => {
    const found = validateMenu(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const msg = await saveMenu({
        ...(node ? { originalName: node.name } : {}),
        parentName: form.parentName,
        node: menuNodeOf(form, (node?.meta ?? {}) as Record<string, unknown>),
        version,
      });
      notify(msg || t('set.common.saved'), 'success');
      onClose(true);
    } catch (err) {
      // The dialog stays open with the server's message; a conflict also reloads the list behind it.
      if (isConflict(err)) onClose(false, true, true);
    } finally {
      setBusy(false);
    }
  };

  const err = (k: keyof MenuForm) => (errors[k] ? t(errors[k]) : undefined);
  const parentLabel = form.parentName ? (parents.find((p) => p.key === form.parentName)?.label ?? form.parentName) : t('set.menu.top');
  const shownComponents = components.filter((c) => c.toLowerCase().includes(componentQuery.trim().toLowerCase())).slice(0, 60);
  return (
    <FormDialog open={open} title={node ? t('set.menu.edit') : t('set.menu.add')} busy={busy} onCancel={() => onClose(false)} onSave={() => void save()} width={720} testId="menu-dialog">
      <div className={styles.grid2}>
        <Field label={t('set.menu.parent')}>
          <Dropdown className={styles.fill} value={parentLabel} selectedOptions={[form.parentName || TOP]} onOptionSelect={(_, d) => set('parentName', d.optionValue === TOP ? '' : (d.optionValue ?? ''))}>
            <Option value={TOP}>{t('set.menu.top')}</Option>
            {parents.map((p) => (
              <Option key={p.key} value={p.key} text={p.label}>
                <span style={{ paddingLeft: `${p.depth * 12}px` }}>{p.label}</span>
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={t('set.menu.title')} required validationMessage={err('title')} hint={t('set.menu.titleHint')}>
          <Input name="title" value={form.title} onChange={(_, d) => set('title', d.value)} />
        </Field>
        <Field label={t('set.menu.name')} required validationMessage={err('name')} hint={t('set.menu.nameHint')}>
          <Input name="name" value={form.name} onChange={(_, d) => set('name', d.value)} />
        </Field>
        <Field label={t('set.menu.path')} required validationMessage={err('path')} hint={t('set.menu.pathHint')}>
          <Input name="path" value={form.path} onChange={(_, d) => set('path', d.value)} />
        </Field>
        <Field label={t('set.menu.component')} required validationMessage={err('component')} hint={t('set.menu.componentHint')}>
          <Combobox
            className={styles.fill}
            freeform
            value={componentQuery}
            selectedOptions={form.component ? [form.component] : []}
            onChange={(e) => {
              setComponentQuery(e.target.value);
              set('component', e.target.value);
            }}
            onOptionSelect={(_, d) => {
              set('component', d.optionValue ?? '');
              setComponentQuery(d.optionValue ?? '');
            }}
          >
            {shownComponents.map((c) => (
              <Option key={c} value={c}>
                {c}
              </Option>
            ))}
          </Combobox>
        </Field>
        <Field label={t('set.menu.redirect')}>
          <Input name="redirect" value={form.redirect} onChange={(_, d) => set('redirect', d.value)} />
        </Field>
        <Field label={t('set.menu.icon')}>
          <Input name="icon" value={form.icon} onChange={(_, d) => set('icon', d.value)} placeholder="settings-3-line" />
        </Field>
        <Field label={t('set.menu.guard')} validationMessage={err('guard')} hint={t('set.menu.guardHint')}>
          <Input name="guard" value={form.guard} onChange={(_, d) => set('guard', d.value)} placeholder="Admin, Editor" />
        </Field>
        <Field label={t('set.menu.badge')}>
          <Input name="badge" value={form.badge} onChange={(_, d) => set('badge', d.value)} />
        </Field>
        <Field label={t('set.menu.activeMenu')}>
          <Input name="activeMenu" value={form.activeMenu} onChange={(_, d) => set('activeMenu', d.value)} />
        </Field>
        <Field label={t('set.menu.target')}>
          <Dropdown className={styles.fill} value={form.target || t('set.menu.targetSelf')} selectedOptions={[form.target || '_self']} onOptionSelect={(_, d) => set('target', d.optionValue === '_self' ? '' : (d.optionValue ?? ''))}>
            <Option value="_self" text={t('set.menu.targetSelf')}>
              {t('set.menu.targetSelf')}
            </Option>
            <Option value="_blank">_blank</Option>
          </Dropdown>
        </Field>
      </div>
      <Field label={t('set.menu.flags')}>
        <div className={styles.checks}>
          {MENU_FLAGS.map((f) => (
            <Checkbox key={f} label={t(`set.menu.flag.${f}`)} checked={form[f]} onChange={(_, d) => set(f, !!d.checked)} />
          ))}
        </div>
      </Field>
    </FormDialog>
  );
}
