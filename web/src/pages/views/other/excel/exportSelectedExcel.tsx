import { ExcelDemo } from '@/components/demo/ExcelDemo';

/** Excel export demo (selected); exceljs is imported only when exporting. */
export default function ExcelPage() {
  return <ExcelDemo mode="selected" />;
}
