package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.export.TurnExport;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where {@code export --patch PATH} writes its series: the one place the user named, which may be
 * outside the workspace since the user named it (it is never a workspace's content, so it is not
 * the boundary's, but an output of turndiff's, written through {@code io.turndiff.ownfiles}). A
 * directory gets one file per mail ({@code 0001-turn-T.patch}, as {@code git format-patch -o} names
 * them); any other name gets the whole series as one mbox file. Nothing that exists is overwritten:
 * a name taken is refused before anything is written.
 */
final class PatchSeriesFiles {

  private PatchSeriesFiles() {}

  static List<Path> write(Path target, List<TurnExport.PatchMail> mails) {
    List<Path> files = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    if (OwnDirectory.of(target).isDirectory(LinkOption.NOFOLLOW_LINKS)) {
      for (TurnExport.PatchMail mail : mails) {
        files.add(target.resolve(mail.fileName()));
        texts.add(mail.text());
      }
    } else {
      files.add(target);
      texts.add(String.join("", mails.stream().map(TurnExport.PatchMail::text).toList()));
    }
    for (Path file : files) {
      if (OwnFile.of(file).exists(LinkOption.NOFOLLOW_LINKS)) {
        throw new CliException(ExitCode.ERROR, file + " exists: export never overwrites a file");
      }
    }
    for (int i = 0; i < files.size(); i++) {
      try {
        OwnFile.of(files.get(i)).createNew(texts.get(i).getBytes(StandardCharsets.UTF_8));
      } catch (FileAlreadyExistsException e) {
        throw new CliException(
            ExitCode.ERROR, files.get(i) + " exists: export never overwrites a file");
      } catch (IOException e) {
        throw new CliException(
            ExitCode.ERROR, "cannot write " + files.get(i) + ": " + e.getMessage());
      }
    }
    return files;
  }
}
